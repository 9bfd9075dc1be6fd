"""Run existing Triton code on Kiln:

    python -m kiln.run [--report] script.py [args...]
    python -m kiln.run [--report] -m pytest tests/ [args...]

puts Kiln's drop-in `triton` in front of any installed Triton, then runs the
script or module as `python` would. --report prints at exit every kernel
launched, whether Kiln or the fallback ran it (KILN_FALLBACK=triton), its
compile ms and launch count.
"""
import atexit
import os
import runpy
import sys

USAGE = ("usage: python -m kiln.run [--report] (script.py | -m module) "
         "[args...]")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    report = False
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--report":
            report = True
        elif opt in ("--help", "-h"):
            print(__doc__.strip())
            return 0
        else:
            print("kiln.run: error: unknown option %s\n%s" % (opt, USAGE),
                  file=sys.stderr)
            return 2
    if not argv:
        print("kiln.run: error: no script or -m module given\n" + USAGE,
              file=sys.stderr)
        return 2
    if report:
        os.environ["KILN_REPORT"] = "1"
        from . import _report
        atexit.register(_report.print_report)
    from . import install
    install()
    if argv[0] == "-m":
        if len(argv) < 2:
            print("kiln.run: error: -m needs a module name\n" + USAGE,
                  file=sys.stderr)
            return 2
        sys.argv = [argv[1]] + argv[2:]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return 0
    script = argv[0]
    if not os.path.exists(script):
        print("kiln.run: error: cannot open %s: no such file" % script,
              file=sys.stderr)
        return 2
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    try:
        code = main()
    except SystemExit as e:
        raise
    sys.exit(code)
