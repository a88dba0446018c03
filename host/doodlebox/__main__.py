from doodlebox.cli import main

raise SystemExit(main())
