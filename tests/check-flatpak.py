#!/usr/bin/env python3
# tests/check-flatpak.py SOURCE_DIR — validates flatpak/io.github.komigo.Komi.json
# where flatpak-builder cannot run: well-formed JSON, the GNOME runtime, an
# app-id matching the desktop file, finish-args within the allowed set,
# every module with its sources, every archive or file source with a URL
# and a sha256 (and where that checksum was found), local sources that
# exist, and the Komi module built from the checkout with its tests run.
# It also checks what makes the Flatpak's KataGo rungs and referee match the
# shipped ladder (data/ladder/protocol-1.json): KataGo built from the tag and
# commit the ladder names, with the build options the ladder's calibration
# used, Eigen pinned, the ladder's network by its sha256, a GTP config with
# logging off, and KOMI_KATAGO* defaults naming the files the build installs.
import json
import os
import re
import sys

from flatpak_katago import check_katago

ALLOWED_FINISH_ARGS = {
    '--share=network', '--socket=wayland', '--socket=fallback-x11', '--share=ipc',
    '--device=dri',
}
errors = []


def check(cond, message):
    if not cond:
        errors.append(message)


source_dir = sys.argv[1]
flatpak_dir = os.path.join(source_dir, 'flatpak')
path = os.path.join(flatpak_dir, 'io.github.komigo.Komi.json')
try:
    with open(path, encoding='utf-8') as f:
        manifest = json.load(f)
except (OSError, ValueError) as e:
    sys.exit(f'{path}: not well-formed JSON: {e}')

app_id = manifest.get('app-id') or manifest.get('id')
desktop = os.path.join(source_dir, 'data', f'{app_id}.desktop')
check(os.path.isfile(desktop), f'app-id {app_id!r} has no data/{app_id}.desktop')
check(os.path.isfile(os.path.join(source_dir, 'data', f'{app_id}.metainfo.xml')),
      f'app-id {app_id!r} has no metainfo')
check(manifest.get('runtime') == 'org.gnome.Platform', 'the runtime is not org.gnome.Platform')
check(manifest.get('sdk') == 'org.gnome.Sdk', 'the SDK is not org.gnome.Sdk')
check(re.fullmatch(r'\d+', str(manifest.get('runtime-version', ''))) is not None,
      'runtime-version is not a GNOME release number')
check(manifest.get('command') == 'komi', 'the command is not komi')
env_defaults = {}
for arg in manifest.get('finish-args', []):
    env = re.fullmatch(r'--env=(KOMI_KATAGO(?:_MODEL|_CONFIG)?)=(.*)', arg)
    if env:
        env_defaults[env.group(1)] = env.group(2)
    else:
        check(arg in ALLOWED_FINISH_ARGS, f'finish-arg {arg} is not allowed')

modules = manifest.get('modules', [])
check(len(modules) > 0, 'no modules')
names = []
for module in modules:
    if isinstance(module, str):
        errors.append(f'module {module!r} is a file reference; declare it inline')
        continue
    name = module.get('name', '?')
    names.append(name)
    sources = module.get('sources', [])
    check(len(sources) > 0, f'module {name} declares no sources')
    for source in sources:
        kind = source.get('type')
        if kind == 'file' and 'path' in source:
            local = os.path.normpath(os.path.join(flatpak_dir, source['path']))
            check(os.path.isfile(local), f'{name}: file source {local} does not exist')
        elif kind in ('archive', 'file'):
            check('url' in source, f'{name}: a {kind} source without url')
            check(re.fullmatch(r'[0-9a-f]{64}', source.get('sha256', '')) is not None,
                  f'{name}: {source.get("url")} has no sha256')
            if 'url' in source:
                check(bool(source.get('x-checksum-source')),
                      f'{name}: where the sha256 of {source["url"]} was found is not said')
        elif kind in ('dir', 'patch'):
            local = os.path.normpath(os.path.join(flatpak_dir, source.get('path', '')))
            check(os.path.exists(local), f'{name}: {kind} source {local} does not exist')
        elif kind == 'git':
            check(re.fullmatch(r'[0-9a-f]{40}', source.get('commit', '')) is not None,
                  f'{name}: git source {source.get("url")} is not pinned to a commit')
            check(bool(source.get('x-commit-source')),
                  f'{name}: where the commit of {source.get("url")} was found is not said')
        else:
            errors.append(f'{name}: source type {kind!r} is not checked here')

komi = [m for m in modules if isinstance(m, dict) and m.get('name') == 'komi']
check(len(komi) == 1, 'no komi module')
if komi:
    check(komi[0].get('buildsystem') == 'meson', 'komi is not built with meson')
    check(komi[0].get('run-tests') is True, 'komi does not run its tests')
    check({'type': 'dir', 'path': '..'} in komi[0].get('sources', []),
          'komi is not built from the checkout')
    check(names[-1] == 'komi', 'komi is not the last module')
check('gnugo' in names, 'no gnugo module')
check_katago(source_dir, flatpak_dir, modules, names, env_defaults, check)

for e in errors:
    print(e)
if not errors:
    print(f'{path}: {len(modules)} modules ({", ".join(names)}), '
          f'{len(manifest.get("finish-args", []))} finish-args: valid')
sys.exit(1 if errors else 0)
