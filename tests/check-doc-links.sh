#!/bin/sh
# tests/check-doc-links.sh [SOURCE_ROOT] — every relative link of the
# project's documentation resolves: README.md, HACKING.md, STYLE.md and
# docs/*.md. A link to a file or folder must name one inside the checkout; a
# link with #anchor must name a heading of its Markdown file (GitHub's
# anchors: lower case, punctuation dropped, spaces to hyphens, -1, -2… for
# repeats) or an explicit <a id="…">. Links in code are not links. Web links
# (http:, https:, mailto:) are not followed. Each broken link is printed as
# FILE:LINE: LINK: why, and the test fails.
set -eu
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
cd "$top"
exec python3 - README.md HACKING.md STYLE.md docs/*.md <<'PY'
import os, re, sys

root = os.path.realpath(os.getcwd())

def strip_code(text):
    """Lines of the file with fenced blocks and inline code blanked out,
    so that line numbers stay right."""
    out, fence = [], None
    for line in text.split('\n'):
        m = re.match(r'^\s*(```+|~~~+)', line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append('')
            continue
        if m:
            fence = m.group(1)
            out.append('')
            continue
        out.append(re.sub(r'(`+)(.+?)\1', lambda c: ' ' * len(c.group(0)), line))
    return out

def slug(heading):
    h = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)   # a link: its text
    h = re.sub(r'<[^>]+>', '', h)                              # inline HTML
    h = h.strip().lower()
    h = ''.join(c for c in h if c.isalnum() or c in ' -_')
    return h.replace(' ', '-')

anchor_cache = {}
def anchors(path):
    if path not in anchor_cache:
        found, seen, fence = set(), {}, None
        with open(path, encoding='utf-8') as f:
            for line in f:
                m = re.match(r'^\s*(```+|~~~+)', line)
                if fence is not None:
                    if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                        fence = None
                    continue
                if m:
                    fence = m.group(1)
                    continue
                for a in re.findall(r'<a\s+(?:id|name)="([^"]+)"', line):
                    found.add(a)
                h = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
                if h:
                    s = slug(h.group(1))
                    n = seen.get(s, 0)
                    seen[s] = n + 1
                    found.add(s if n == 0 else f'{s}-{n}')
        anchor_cache[path] = found
    return anchor_cache[path]

link_re = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
broken = checked = 0
for doc in sys.argv[1:]:
    if not os.path.isfile(doc):
        print(f'{doc}: missing')
        broken += 1
        continue
    with open(doc, encoding='utf-8') as f:
        lines = strip_code(f.read())
    for n, line in enumerate(lines, 1):
        for m in link_re.finditer(line):
            target = m.group(1)
            if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):
                continue                                   # http:, mailto:…
            checked += 1
            path, _, anchor = target.partition('#')
            if path:
                dest = os.path.normpath(os.path.join(os.path.dirname(doc), path))
            else:
                dest = doc
            real = os.path.realpath(dest)
            why = None
            if real != root and not real.startswith(root + os.sep):
                why = 'points outside the checkout'
            elif not os.path.exists(dest):
                why = f'no such file: {dest}'
            elif anchor:
                if not dest.endswith('.md') or os.path.isdir(dest):
                    why = 'an anchor into a file that is not Markdown'
                elif anchor not in anchors(dest):
                    why = f'no heading in {dest} has the anchor #{anchor}'
            if why:
                print(f'{doc}:{n}: {target}: {why}')
                broken += 1

print(f'{checked} relative links checked, {broken} broken')
sys.exit(1 if broken or not checked else 0)
PY
