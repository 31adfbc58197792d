# tests/flatpak_katago.py — the KataGo part of tests/check-flatpak.py: the
# Flatpak must carry the KataGo build and network that the shipped ladder
# (data/ladder/protocol-1.json) pins, so that its KataGo rungs and referee
# match the ladder out of the box. Every expected value is read from the
# ladder file, not written here, so that a new ladder moves the test with it.
import json
import os
import re
import shlex

EIGEN_URL = 'https://gitlab.com/libeigen/eigen.git'
KATAGO_URL = 'https://github.com/lightvector/KataGo.git'
# Config keys that would turn KataGo's logging on, with the value that keeps it off.
LOGGING_OFF = {'logAllGTPCommunication': 'false', 'logSearchInfo': 'false',
               'logToStderr': 'false'}


def _module(modules, name):
    found = [m for m in modules if isinstance(m, dict) and m.get('name') == name]
    return found[0] if len(found) == 1 else None


def _installs(module):
    """Maps each destination of the module's `install SRC DEST` commands to SRC."""
    dests = {}
    for command in module.get('build-commands', []):
        words = shlex.split(command)
        if words and words[0] == 'install':
            operands = [w for w in words[1:] if not w.startswith('-')]
            if len(operands) == 2:
                dests[operands[1]] = operands[0]
    return dests


def _read_config(path):
    keys = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if '=' in line:
                key, value = line.split('=', 1)
                keys[key.strip()] = value.strip()
    return keys


def _ladder_pins(source_dir):
    with open(os.path.join(source_dir, 'data', 'ladder', 'protocol-1.json'),
              encoding='utf-8') as f:
        ladder = json.load(f)
    calibration = ladder['calibration']
    overrides = []
    for member in ladder['members']:
        settings = member['pins']['settings']
        engine = settings.get('engine')
        engine = engine if isinstance(engine, dict) else settings  # mixes nest theirs
        if engine.get('engine') == 'katago' and 'overrides' in engine:
            overrides.append(engine['overrides'])
    return calibration['katago'], calibration['network'], overrides


def check_katago(source_dir, flatpak_dir, modules, names, env_defaults, check):
    katago_pin, network_pin, member_overrides = _ladder_pins(source_dir)
    commits = re.findall(r'\b[0-9a-f]{40}\b', network_pin['source'])
    check(len(commits) == 1, 'the ladder does not name the KataGo commit of its network')

    eigen = _module(modules, 'eigen')
    katago = _module(modules, 'katago')
    check(eigen is not None, 'no eigen module (KataGo\'s CPU backend needs it)')
    check(katago is not None, 'no katago module')
    if eigen is None or katago is None:
        return
    check(names.index('eigen') < names.index('katago') < names.index('komi'),
          'the modules are not built in the order eigen, katago, komi')

    eigen_git = [s for s in eigen.get('sources', []) if s.get('type') == 'git']
    check(len(eigen_git) == 1 and eigen_git[0].get('url') == EIGEN_URL
          and bool(eigen_git[0].get('tag')) and 'commit' in eigen_git[0],
          f'eigen is not built from {EIGEN_URL} at a tag and its commit')
    check(eigen.get('cleanup') == ['*'], 'eigen (headers for the build only) is not cleaned up')

    sources = katago.get('sources', [])
    git = [s for s in sources if s.get('type') == 'git']
    check(len(git) == 1 and git[0].get('url') == KATAGO_URL,
          f'katago is not built from {KATAGO_URL}')
    if git and commits:
        check(git[0].get('tag') == 'v' + katago_pin['version'],
              f'katago is not built from tag v{katago_pin["version"]} (the ladder\'s)')
        check(git[0].get('commit') == commits[0],
              f'katago is not built from commit {commits[0]} (the ladder\'s)')

    # The build options: those the ladder's calibration used (and the
    # project's tests' KataGo, ../shared/engines/katago), no git revision.
    cmake = [c for c in katago.get('build-commands', []) if c.startswith('cmake ')]
    check(len(cmake) == 1, 'katago has no single cmake command')
    wanted = re.findall(r'-D\w+=\w+', katago_pin['build']) + ['-DNO_GIT_REVISION=1']
    check('-DUSE_BACKEND=EIGEN' in wanted, 'the ladder\'s KataGo is not the Eigen build')
    for flag in wanted:
        check(bool(cmake) and flag in shlex.split(cmake[0]),
              f'katago is not configured with {flag}')

    # The network: the ladder's file, by its sha256, from the pinned commit.
    network = [s for s in sources if s.get('type') == 'file' and 'url' in s]
    check(len(network) == 1, 'katago carries no network file (or more than one)')
    network_name = None
    if network:
        network_name = network[0].get('dest-filename', network[0]['url'].rsplit('/', 1)[-1])
        check(network[0].get('sha256') == network_pin['sha256'],
              f'the network\'s sha256 is not the ladder\'s {network_pin["sha256"]}')
        check(network_name == network_pin['file'],
              f'the network is not the ladder\'s {network_pin["file"]}')
        check(bool(commits) and f'/{commits[0]}/' in network[0]['url'],
              'the network\'s URL is not at the ladder\'s KataGo commit')

    # The GTP config: a file of the checkout, logging off, the ladder's thread count.
    configs = [s for s in sources if s.get('type') == 'file' and 'path' in s]
    check(len(configs) == 1, 'katago carries no GTP config file')
    config_name = None
    if configs:
        config_name = configs[0]['path']
        path = os.path.join(flatpak_dir, config_name)
        keys = _read_config(path) if os.path.isfile(path) else {}
        for key, value in LOGGING_OFF.items():
            check(keys.get(key) == value, f'{config_name}: {key} is not {value}')
        for key in ('logDir', 'logFile', 'logDirDated'):
            check(key not in keys, f'{config_name}: {key} turns logging to files on')
        for key in ('maxVisits', 'nnRandSeed', 'searchRandSeed'):
            check(key in keys, f'{config_name}: no {key}')
        threads = {o.get('numSearchThreads') for o in member_overrides}
        check(len(threads) == 1 and keys.get('numSearchThreads') in threads,
              f'{config_name}: numSearchThreads is not the ladder\'s {sorted(threads)}')

    # The defaults: KOMI_KATAGO* name the files the build commands install.
    installs = _installs(katago)
    expected = {'KOMI_KATAGO': ('binary', '_build/katago'),
                'KOMI_KATAGO_MODEL': ('network', network_name),
                'KOMI_KATAGO_CONFIG': ('GTP config', config_name)}
    for variable, (what, installed_from) in expected.items():
        value = env_defaults.get(variable)
        check(value is not None and value.startswith('/app/'),
              f'no --env={variable}=/app/… finish-arg: the sandbox has no default KataGo {what}')
        check(value is None or installs.get(value) == installed_from,
              f'{variable}={value} is not where katago installs its {what}')
