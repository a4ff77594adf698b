"""Adapts deploy/k8s, as kustomize renders it, to what podman 4.3's `kube play` runs (run-checks.sh, step 5).

usage: kube-play-adapt.py RENDERED SECRET_YAML PLAY_OUT ENV_SECRET_OUT

Kept as rendered: the ConfigMaps, the PersistentVolumeClaim and the Deployment (podman has no Service,
PodDisruptionBudget or ServiceMonitor). Changed, each for a podman limit, never for what the pod does:
- every containerPort gets hostIP 127.0.0.1 and a spare hostPort: podman publishes each containerPort on the
  host (Kubernetes does not), on 0.0.0.0 and the same port unless told otherwise;
- the claim gets podman's uid/gid annotations for the pod's user (10001): podman ignores fsGroup;
- the Secret's values for env secretKeyRef become a podman secret NAME-env holding a flat key -> base64 map, the
  only form podman 4.3 reads there (the env references are renamed to it);
- a Secret volume becomes a ConfigMap volume of the same keys (ConfigMap NAME-files, written beside the play
  file): podman 4.3 writes a secret volume's files base64-encoded, whatever form the secret has (seen with both
  data and stringData), so the pod would read its connection context encoded. Mode and items are kept.
"""
import base64
import json
import sys

import yaml

rendered, secret_in, play_out, env_secret_out = sys.argv[1:5]
secret = yaml.safe_load(open(secret_in))
name = secret["metadata"]["name"]
data = dict(secret.get("data") or {})
for key, value in (secret.get("stringData") or {}).items():
    data[key] = base64.b64encode(value.encode()).decode()
json.dump(data, open(env_secret_out, "w"))
files = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name + "-files"},
         "data": {k: base64.b64decode(v).decode() for k, v in data.items()}}
kept = [files]
for doc in yaml.safe_load_all(open(rendered)):
    if not doc or doc["kind"] not in ("ConfigMap", "PersistentVolumeClaim", "Deployment"):
        continue
    if doc["kind"] == "PersistentVolumeClaim":
        doc["metadata"].setdefault("annotations", {}).update(
            {"volume.podman.io/uid": "10001", "volume.podman.io/gid": "10001"})
    if doc["kind"] == "Deployment":
        host_port = 18080
        for container in doc["spec"]["template"]["spec"]["containers"]:
            for port in container.get("ports", []):
                port["hostIP"] = "127.0.0.1"
                port["hostPort"] = host_port
                host_port += 1
            for env in container.get("env") or []:
                ref = env.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    ref["name"] = ref["name"] + "-env"
        for volume in doc["spec"]["template"]["spec"].get("volumes") or []:
            source = volume.get("secret")
            if source and source["secretName"] == name:
                del volume["secret"]
                source.pop("secretName")
                volume["configMap"] = {"name": name + "-files", **source}
    kept.append(doc)
yaml.safe_dump_all(kept, open(play_out, "w"), sort_keys=False)
print("kinds played: " + " ".join(d["kind"] + "/" + d["metadata"]["name"] for d in kept)
      + "; podman secret " + name + "-env for the env references")
