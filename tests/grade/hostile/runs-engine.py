# A hostile submission (docs/SECURITY.md): it prints what the reference
# engine prints, by running the engine itself. argv[1:]: the command that
# runs the engine (the grader's own). Graded with --user, the engine is
# closed to it and every test fails.
import subprocess
import sys

script = sys.stdin.buffer.read()
try:
    done = subprocess.run(sys.argv[1:], input=script, capture_output=True, timeout=10)
    sys.stdout.buffer.write(done.stdout)
    sys.stderr.write(f"the engine said ({done.returncode}): {done.stderr.decode(errors='replace')[:300]}\n")
except OSError as e:
    sys.stderr.write(f"cannot run the engine: {e}\n")
