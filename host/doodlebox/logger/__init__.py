"""`doodlebox log`: a console followed by its link thread (link_thread.py), many at once (club.py), each
event printed as the table reads it (printout.py), the games validated live (verdicts.py), the PC's
answers to the console's hint and seat requests (answers.py)."""
