#!/usr/bin/env bash
# Gradescope's setup.sh for grading with `slowstart grade` (docs/GRADING.md).
# It runs once, as root, when the autograder image is built (Ubuntu).
set -euo pipefail

# Node 20 or later (Ubuntu's own nodejs is older), then slowstart: from the
# package file put in the autograder zip (`npm pack` gives slowstart-X.Y.Z.tgz),
# or else from the npm registry.
apt-get update
apt-get install -y ca-certificates curl gnupg python3
curl -fsSL https://deb.nodesource.com/setup_20.x | bash -
apt-get install -y nodejs
package=$(ls /autograder/source/slowstart-*.tgz 2>/dev/null | head -n 1 || true)
npm install --global "${package:-slowstart}"
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
