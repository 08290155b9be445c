#!/usr/bin/env bash
# Gradescope's setup.sh for grading with `slowstart grade` (docs/GRADING.md).
# It runs once, as root, when the autograder image is built (Ubuntu).
set -euo pipefail
root=${AUTOGRADER:-/autograder}

# slowstart comes from the package file in the autograder zip (`npm pack` in
# a clone of slowstart gives slowstart-X.Y.Z.tgz), and from nowhere else:
# nobody owns the name `slowstart` on the npm registry (docs/PACKAGE.md), so
# whoever published it first would run code as root here. No file, no image.
package=$(ls "$root"/source/slowstart-*.tgz 2>/dev/null | head -n 1 || true)
if [[ -z $package ]]; then
  echo "setup.sh: no slowstart-*.tgz in $root/source: put the package file from \`npm pack\` in the autograder zip" >&2
  exit 1
fi

# Node 20 or later (Ubuntu's own nodejs is older), then slowstart from that file.
apt-get update
apt-get install -y ca-certificates curl gnupg python3
curl -fsSL https://deb.nodesource.com/setup_20.x | bash -
apt-get install -y nodejs
npm install --global "$package"
slowstart --version

# The learner's program runs as this user (run_autograder's --user), and the
# engine is closed to it: only root may read or run slowstart, so a
# submission cannot ask it for the answers (docs/SECURITY.md).
id slowstart-learner >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin slowstart-learner
package_dir="$(npm root --global)/slowstart"
chown -R root:root "$package_dir"
chmod -R o-rwx "$package_dir"
chmod 750 "$package_dir"

# The learners' language: python3 above; add what yours needs (a JDK, g++, ...).
