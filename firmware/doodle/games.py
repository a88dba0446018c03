# Generated from host/doodlebox/rules/*/spec.py by `make firmware-data`; do not edit.
# The lobby's games, in the order D0 steps through them (doodle/lobby.py; docs/adding-a-game.md).
# Texts are packed (split when needed: RAM).
ED = 'city suzhou treasures shanghai monsters deadly puzzle'
NAME = 'Doodle City/Suzhou/Sea of Treasures/Shanghai/Sea of Monsters/Deadly Doodles/Doodle Puzzle'
# per game: fewest, most players, kind (0 dice, More control offered; 1 dice, 6x6:
# passing always; 2 cards), its options in OPT stepped by PASS and MENU (255: none)
GAME = (b'\x01\x05\x00\xff\xff'  # city
        b'\x01\x05\x00\xff\xff'  # suzhou
        b'\x01\x05\x00\xff\xff'  # treasures
        b'\x02\x05\x01\xff\xff'  # shanghai
        b'\x02\x05\x01\xff\xff'  # monsters
        b'\x01\x04\x02\x00\x01'  # deadly
        b'\x03\x08\x02\x02\x03')  # puzzle
CONTROL = 'More control/off/on'  # More control's line: its label/off/on
# key/label/values/their labels/the default, options apart by '|', values by ','
OPT = ('map/Map/a,b/A,B/a|'
       'rec/Drawings/full,tally/full,tallies/full|'
       'var/Variant/,behave,showdown/base,Behave,Showdown/|'
       'subj/Subjects/standard,beginner/standard,beginner/standard')
LIMIT = ((2, 1, 3, 7, 'behave_8'),)  # (option in OPT, its value's index, fewest, most players, the refusal)
