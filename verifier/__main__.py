from verifier.cli import main

raise SystemExit(main())
