# A hostile submission (docs/SECURITY.md): it prints the expected output
# from the author's NAME.out beside the script that matches its stdin.
# argv[1]: the tests' folder. Graded with --user, the folder is closed to it.
import os
import sys

script = sys.stdin.buffer.read()
folder = sys.argv[1]
try:
    for name in sorted(os.listdir(folder)):
        if name.endswith(".txt"):
            with open(os.path.join(folder, name), "rb") as f:
                if f.read() == script:
                    with open(os.path.join(folder, name[:-4] + ".out"), "rb") as out:
                        sys.stdout.buffer.write(out.read())
except OSError as e:
    sys.stderr.write(f"cannot read the answers: {e}\n")
