#!/usr/bin/env python3
# tests/check-kubernetes.py SOURCE_DIR — the Kubernetes example of sharded
# series (data/examples/kubernetes) checked without a cluster: every
# document is YAML with the fields the API requires of its kind (Job:
# batch/v1, a pod template with a restartPolicy a Job accepts and named
# containers with an image; PersistentVolumeClaim: access modes and a
# storage request), volumes mounted by name exist, and the Indexed Job runs
# one shard per completion index with as many shards as completions.
# Skipped (77) without PyYAML (Debian: python3-yaml).
import pathlib
import re
import sys

try:
    import yaml
except ImportError:
    print("SKIP: PyYAML is not installed (Debian package python3-yaml)")
    sys.exit(77)

folder = pathlib.Path(sys.argv[1]) / "data" / "examples" / "kubernetes"
errors = []


def need(cond, where, what):
    if not cond:
        errors.append(f"{where}: {what}")
    return cond


def check_pod(where, spec):
    need(spec.get("restartPolicy") in ("Never", "OnFailure"), where,
         "a Job's pods need restartPolicy Never or OnFailure")
    containers = spec.get("containers")
    if not need(isinstance(containers, list) and containers, where, "no containers"):
        return []
    volumes = {v.get("name") for v in spec.get("volumes", [])}
    for v in spec.get("volumes", []):
        need(any(k in v for k in ("persistentVolumeClaim", "configMap", "emptyDir", "secret")),
             where, f"volume {v.get('name')} has no source")
    for c in containers:
        need(c.get("name"), where, "a container without a name")
        need(c.get("image"), where, f"container {c.get('name')} without an image")
        for m in c.get("volumeMounts", []):
            need(m.get("name") in volumes and m.get("mountPath"), where,
                 f"mount {m.get('name')} names no volume of the pod, or has no mountPath")
    return containers


docs = []
for path in sorted(folder.glob("*.yaml")):
    for doc in yaml.safe_load_all(path.read_text()):
        if doc is not None:
            docs.append((path.name, doc))
need(len(docs) >= 3, str(folder), "expected the volume claim, the shards' Job and the merge Job")

claims = {d.get("metadata", {}).get("name") for _, d in docs
          if d.get("kind") == "PersistentVolumeClaim"}
indexed = merge = None
for name, doc in docs:
    kind = doc.get("kind")
    where = f"{name}: {kind} {doc.get('metadata', {}).get('name')}"
    need(doc.get("apiVersion") and kind and doc.get("metadata", {}).get("name"), where,
         "apiVersion, kind and metadata.name are required")
    spec = doc.get("spec") or {}
    if kind == "PersistentVolumeClaim":
        need(doc["apiVersion"] == "v1", where, "apiVersion must be v1")
        need(spec.get("accessModes"), where, "spec.accessModes is required")
        need(spec.get("resources", {}).get("requests", {}).get("storage"), where,
             "spec.resources.requests.storage is required")
    elif kind == "Job":
        need(doc["apiVersion"] == "batch/v1", where, "apiVersion must be batch/v1")
        template = spec.get("template", {})
        containers = check_pod(where, template.get("spec", {}))
        for v in template.get("spec", {}).get("volumes", []):
            pvc = v.get("persistentVolumeClaim")
            if pvc:
                need(pvc.get("claimName") in claims, where,
                     f"claim {pvc.get('claimName')} is defined nowhere")
        text = " ".join(" ".join(c.get("command", []) + c.get("args", [])) for c in containers)
        if spec.get("completionMode") == "Indexed":
            indexed = (where, spec, containers, text)
        elif "komi-cli merge" in text:
            merge = (where, text)
    else:
        need(False, where, "unexpected kind")

if need(indexed is not None, str(folder), "no Indexed Job"):
    where, spec, containers, text = indexed
    completions = spec.get("completions")
    need(isinstance(completions, int) and completions > 0, where,
         "an Indexed Job needs completions")
    need(spec.get("parallelism", 1) <= completions, where, "parallelism above completions")
    need("JOB_COMPLETION_INDEX" in text and "--shard" in text, where,
         "each pod must play the shard of its completion index")
    shards = [e.get("value") for c in containers for e in c.get("env", [])
              if e.get("name") == "KOMI_SHARDS"]
    need(shards == [str(completions)], where,
         f"KOMI_SHARDS {shards} must equal completions {completions}")
    need(re.search(r"--db \S*shard-", text), where, "each shard needs a library of its own")
if need(merge is not None, str(folder), "no merge Job"):
    need("shard-*.db" in merge[1], merge[0], "the merge must take every shard's library")

for e in errors:
    print(e)
print(f"{len(docs)} documents checked, {len(errors)} problems")
sys.exit(1 if errors else 0)
