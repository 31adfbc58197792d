#!/bin/sh
# tests/check-app-readme.sh [SOURCE_ROOT] — src/app/README.md, the map of
# the application, has a row for every file of src/app and src/app/model
# (the first cell names it: `komi-window.c`, `.h`, `.ui`, each extension
# after the first taking the name before it), and no row for a file that
# is gone. The rows under the heading that names src/app/model are that
# folder's.
set -eu
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
cd "$top/src/app"
exec python3 - <<'PY'
import os, re, sys

named, folder = set(), ''
for line in open('README.md', encoding='utf-8'):
    if line.startswith('## '):
        folder = 'model/' if 'src/app/model' in line else ''
        continue
    if not line.startswith('| `'):
        continue
    base = None
    for token in re.findall(r'`([^`]+)`', line.split(' | ')[0]):
        if token.startswith('.'):
            named.add(folder + base + token)
        else:
            base = token.rsplit('.', 1)[0]
            named.add(folder + token)

on_disk = set()
for dirpath, _, files in os.walk('.'):
    for name in files:
        on_disk.add(os.path.relpath(os.path.join(dirpath, name), '.'))

status = 0
for f in sorted(on_disk - named):
    print(f'src/app/README.md has no row for src/app/{f}')
    status = 1
for f in sorted(named - on_disk):
    print(f'src/app/README.md has a row for src/app/{f}, which does not exist')
    status = 1
if status == 0:
    print(f'src/app/README.md names all {len(on_disk)} files of src/app')
sys.exit(status)
PY
