"""Compile every `RUN: ln-compile FILE.py ...` line of the test tree with two ln-compile
binaries and compare the PTX (and the module's tile.shared_bytes). Usage:
  python3 run_lines_ab.py BASE_LN_COMPILE NEW_LN_COMPILE [extra kernels file]"""
import glob, os, re, shlex, subprocess, sys, concurrent.futures as cf

root = "/work/main"
base, new = sys.argv[1], sys.argv[2]
cmds = set()
for path in glob.glob(f"{root}/test/**/*.py", recursive=True) + glob.glob(f"{root}/test/**/*.test", recursive=True):
    runs, cur = [], ""
    for line in open(path, errors="replace"):  # RUN lines continued with a backslash joined
        m = re.search(r"RUN:(.*)", line)
        if not m:
            if cur:
                runs.append(cur)
                cur = ""
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        runs.append(cur + part)
        cur = ""
    if cur:
        runs.append(cur)
    for r in runs:
        m = re.search(r"^\s*(?:not\s+)?(ln-compile\s.*)", r)
        if not m:
            continue
        # the command up to a pipe or redirection (a signature's `>` is not one)
        cmd = re.split(r"\s\|\s|\s\|$|\s2?>&?\S*", m.group(1))[0]
        d = os.path.dirname(path)
        cmd = cmd.replace("%s", path).replace("%S", d)
        if "%" in cmd or "--verify-diagnostics" in cmd:
            continue
        try:
            argv = shlex.split(cmd)[1:]
        except ValueError:
            continue
        if not argv or not argv[0].endswith(".py"):
            continue
        out = []
        skip = False
        for a in argv:
            if skip:
                skip = False
                continue
            if a in ("-o", "--emit", "--dump-dir"):
                skip = True
                continue
            if a.startswith("--emit="):
                continue
            out.append(a)
        cmds.add(tuple(out))
if len(sys.argv) > 3:
    for line in open(sys.argv[3]):
        if line.strip() and not line.startswith("#"):
            cmds.add(tuple(shlex.split(line)))

def run(binary, argv):
    p = subprocess.run([binary, *argv, "--emit=ptx", "-o", "-"], capture_output=True, text=True)
    if p.returncode:
        return "ERR " + p.stderr[-200:]
    q = subprocess.run([binary, *argv, "--emit=llvm-dialect", "-o", "-"], capture_output=True, text=True)
    sm = re.search(r"tile.shared_bytes = (\d+)", q.stdout)
    return p.stdout, sm.group(1) if sm else "?"

def both(argv):
    return argv, run(base, argv), run(new, argv)

same = differ = errs = 0
with cf.ThreadPoolExecutor(2) as ex:
    for argv, a, b in ex.map(both, sorted(cmds)):
        name = " ".join(argv)
        if a == b:
            same += 1
            continue
        if isinstance(a, str) or isinstance(b, str):
            errs += 1
            print("ERR ", name, "|", a if isinstance(a, str) else "ok", "|", b if isinstance(b, str) else "ok")
            continue
        differ += 1
        print("DIFF", name, "| shared", a[1], "->", b[1])
print(f"{same} identical, {differ} differ, {errs} with errors, {len(cmds)} commands")
