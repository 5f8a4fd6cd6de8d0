"""The Helm chart: values.yaml against values.schema.json, probe paths and ports against the
app, every value a template reads present in values.yaml; and the chart linted (strict) and
rendered by the real Helm engine (the `helm-python-sdk` wheel, no `helm` binary needed), each
manifest validated against the Kubernetes schemas (`kubernetes-validate`, strict), with the
default values and with every optional part turned on."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import helm_python as helm
import jsonschema
import kubernetes_validate
import kubernetes_validate.utils
import pytest
import yaml

from diceref.cli import build_parser
from diceref.http.app import app

CHART = Path(__file__).parents[2] / "helm" / "diceref"
TEMPLATES = CHART / "templates"


def values() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((CHART / "values.yaml").read_text())
    return loaded


def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CHART / "values.schema.json").read_text())
    return loaded


def app_paths() -> set[str]:
    return {route.path for route in app.routes}


def test_values_match_the_schema() -> None:
    jsonschema.Draft7Validator.check_schema(schema())
    jsonschema.validate(values(), schema(), cls=jsonschema.Draft7Validator)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("workers",), 0),
        (("containerPort",), "8000"),
        (("containerPort",), 80),  # a non-root process cannot bind it
        (("redis", "url"), "http://redis:6379"),
        (("config", "logFormat"), "xml"),
        (("config", "preload"), "yahtzee;chute-5"),
        (("config", "maxBodyBytes"), 0),
        (("image", "pullPolicy"), "Sometimes"),
        (("resources", "limits", "memory"), "lots"),
        (("replicas",), 3),  # a typo of replicaCount: unknown keys are refused
        (("probes", "liveness", "path"), "/live"),  # paths are fixed by the app
    ],
)
def test_the_schema_refuses_wrong_values(path: tuple[str, ...], value: object) -> None:
    doc = values()
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema(), cls=jsonschema.Draft7Validator)


def test_every_value_a_template_reads_exists() -> None:
    doc = values()
    used = set()
    for template in TEMPLATES.iterdir():
        used |= set(re.findall(r"\.Values\.([A-Za-z0-9_.]+)", template.read_text()))
    assert used
    for dotted in sorted(used):
        node: Any = doc
        for key in dotted.split("."):
            assert isinstance(node, dict) and key in node, f".Values.{dotted} not in values.yaml"
            node = node[key]


def _probe(text: str, probe: str) -> tuple[str, str]:
    block = re.search(rf"^(\s*){probe}:\n((?:\1\s+.*\n)+)", text, re.M)
    assert block, probe
    path = re.search(r"path:\s*(\S+)", block.group(2))
    port = re.search(r"port:\s*(\S+)", block.group(2))
    assert path and port, probe
    return path.group(1), port.group(1)


def test_probes_call_the_apps_routes_on_its_port() -> None:
    deployment = (TEMPLATES / "deployment.yaml").read_text()
    routes = app_paths()
    assert _probe(deployment, "livenessProbe") == ("/healthz", "http")
    assert _probe(deployment, "startupProbe") == ("/healthz", "http")
    assert _probe(deployment, "readinessProbe") == ("/readyz", "http")
    assert {"/healthz", "/readyz", "/metrics"} <= routes
    assert re.search(
        r"- name: http\n\s+containerPort: \{\{ \.Values\.containerPort \}\}", deployment
    )
    assert "prometheus.io/path: /metrics" in deployment
    configmap = (TEMPLATES / "configmap.yaml").read_text()
    assert "DICEREF_PORT: {{ .Values.containerPort | quote }}" in configmap
    assert 'DICEREF_HOST: "0.0.0.0"' in configmap
    service = (TEMPLATES / "service.yaml").read_text()
    assert "targetPort: http" in service
    default_port = build_parser().parse_args(["serve"]).port
    assert values()["containerPort"] == default_port == 8000


def test_the_configmap_sets_only_variables_the_service_reads() -> None:
    configmap = (TEMPLATES / "configmap.yaml").read_text()
    names = set(re.findall(r"^\s+([A-Z][A-Z0-9_]+):", configmap, re.M))
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    documented = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", readme, re.M))
    assert names and names <= documented, names - documented


def test_security_defaults() -> None:
    doc = values()
    assert doc["podSecurityContext"]["runAsNonRoot"] is True
    assert doc["podSecurityContext"]["runAsUser"] != 0
    assert doc["securityContext"]["readOnlyRootFilesystem"] is True
    assert doc["securityContext"]["allowPrivilegeEscalation"] is False
    assert doc["securityContext"]["capabilities"]["drop"] == ["ALL"]
    assert doc["redis"]["url"] == ""  # Redis is external, and opt-in
    assert doc["resources"]["limits"]["memory"]


# --- the real Helm engine (the helm-python-sdk wheel bundles Helm as a library) -----------------

RELEASE, NAMESPACE = "dice", "games"
EVERYTHING_ON: dict[str, Any] = {
    "autoscaling": {"enabled": False},
    "replicaCount": 3,
    "podDisruptionBudget": {"enabled": True, "maxUnavailable": "25%"},
    "redis": {"existingSecret": "diceref-redis", "url": ""},
    "ingress": {
        "enabled": True,
        "className": "nginx",
        "annotations": {"nginx.ingress.kubernetes.io/upstream-keepalive-timeout": "5"},
        "hosts": [{"host": "dice.example", "paths": [{"path": "/", "pathType": "Prefix"}]}],
        "tls": [{"secretName": "dice-tls", "hosts": ["dice.example"]}],
    },
    "serviceMonitor": {"enabled": True, "labels": {"release": "kube-prometheus-stack"}},
    "networkPolicy": {
        "enabled": True,
        "redisEgress": {
            "port": 6380,
            "to": [
                {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "redis"}}}
            ],
        },
        "extraEgress": [{"ports": [{"port": 4317, "protocol": "TCP"}]}],
    },
    "serviceAccount": {"create": True},
    "extraEnv": [{"name": "DICEREF_LOG_LEVEL", "value": "DEBUG"}],
    "imagePullSecrets": [{"name": "registry"}],
    "podAnnotations": {"team": "dice"},
    "nodeSelector": {"kubernetes.io/os": "linux"},
    "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "dice"}],
    "affinity": {
        "nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {
                    "weight": 1,
                    "preference": {
                        "matchExpressions": [
                            {"key": "pool", "operator": "In", "values": ["general"]}
                        ]
                    },
                }
            ]
        }
    },
}


def render(overrides: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The chart rendered offline by Helm itself, every manifest by kind."""
    chart = helm.Chart.load(CHART)
    manifests = chart.render(overrides or {}, name=RELEASE, namespace=NAMESPACE)
    docs = [
        doc
        for path, text in manifests.items()
        if path.endswith(".yaml")
        for doc in yaml.safe_load_all(text)
        if doc
    ]
    kinds = {doc["kind"]: doc for doc in docs}
    assert len(kinds) == len(docs), "one manifest per kind"
    return kinds


# The Prometheus Operator's CRD is not among the Kubernetes schemas: the parts of a
# ServiceMonitor the chart writes, closed, are checked against this instead.
SERVICE_MONITOR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "additionalProperties": False,
    "properties": {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "kind": {"const": "ServiceMonitor"},
        "metadata": {"type": "object", "required": ["name", "labels"]},
        "spec": {
            "type": "object",
            "additionalProperties": False,
            "required": ["selector", "endpoints"],
            "properties": {
                "selector": {
                    "type": "object",
                    "properties": {"matchLabels": {"type": "object"}},
                    "additionalProperties": False,
                },
                "namespaceSelector": {
                    "type": "object",
                    "properties": {"matchNames": {"type": "array", "items": {"type": "string"}}},
                    "additionalProperties": False,
                },
                "endpoints": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "port": {"type": "string"},
                            "path": {"type": "string"},
                            "interval": {"type": "string", "pattern": "^[0-9]+(ms|s|m|h)$"},
                            "scrapeTimeout": {"type": "string", "pattern": "^[0-9]+(ms|s|m|h)$"},
                        },
                    },
                },
            },
        },
    },
}


def validate_manifests(kinds: dict[str, dict[str, Any]]) -> None:
    """Every manifest against the Kubernetes schemas, strictly (an unknown field fails)."""
    version = kubernetes_validate.utils.latest_version()
    for kind, doc in kinds.items():
        if kind == "ServiceMonitor":
            jsonschema.validate(doc, SERVICE_MONITOR_SCHEMA)
            continue
        kubernetes_validate.validate(doc, version, strict=True)


def test_helm_lints_the_chart_strictly() -> None:
    for overrides in ({}, EVERYTHING_ON):
        report = helm.lint(CHART, overrides, strict=True)
        assert report["errors"] == [], report
        # only informational messages (the chart has no icon); warnings are errors here
        assert all(m["severity"] <= 1 for m in report["messages"]), report["messages"]


def test_the_default_chart_renders_and_validates() -> None:
    kinds = render()
    assert set(kinds) == {
        "Deployment",
        "Service",
        "ConfigMap",
        "PodDisruptionBudget",
        "HorizontalPodAutoscaler",
    }, "ingress, ServiceMonitor and NetworkPolicy are off by default"
    validate_manifests(kinds)
    deployment = kinds["Deployment"]
    pod = deployment["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert container["startupProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["ports"][0] == {"name": "http", "containerPort": 8000, "protocol": "TCP"}
    assert "replicas" not in deployment["spec"]  # the HPA decides
    assert kinds["ConfigMap"]["data"]["DICEREF_PORT"] == "8000"
    assert "REDIS_URL" not in kinds["ConfigMap"]["data"]
    # connection draining: the preStop pause, then SIGTERM's drain, within the grace period
    assert pod["terminationGracePeriodSeconds"] == 30
    assert container["lifecycle"]["preStop"]["exec"]["command"] == ["sleep", "5"]
    assert kinds["ConfigMap"]["data"]["DICEREF_SHUTDOWN_TIMEOUT"] == "20"
    # spread over nodes and zones, selecting this release's pods
    selector = deployment["spec"]["selector"]["matchLabels"]
    spread = pod["topologySpreadConstraints"]
    assert [c["topologyKey"] for c in spread] == [
        "kubernetes.io/hostname",
        "topology.kubernetes.io/zone",
    ]
    for constraint in spread:
        assert constraint["labelSelector"] == {"matchLabels": selector}
        assert constraint["whenUnsatisfiable"] == "ScheduleAnyway"
    assert kinds["Service"]["spec"]["selector"] == selector


def test_every_optional_part_renders_and_validates() -> None:
    kinds = render(EVERYTHING_ON)
    assert set(kinds) == {
        "Deployment",
        "Service",
        "ConfigMap",
        "PodDisruptionBudget",
        "ServiceAccount",
        "Ingress",
        "ServiceMonitor",
        "NetworkPolicy",
    }
    validate_manifests(kinds)
    selector = kinds["Deployment"]["spec"]["selector"]["matchLabels"]
    service = kinds["Service"]
    pod = kinds["Deployment"]["spec"]["template"]["spec"]
    assert kinds["Deployment"]["spec"]["replicas"] == 3
    assert pod["serviceAccountName"] == kinds["ServiceAccount"]["metadata"]["name"]
    env = {e["name"]: e for e in pod["containers"][0]["env"]}
    assert env["REDIS_URL"]["valueFrom"]["secretKeyRef"]["name"] == "diceref-redis"

    ingress = kinds["Ingress"]["spec"]
    assert ingress["ingressClassName"] == "nginx"
    assert ingress["tls"] == [{"hosts": ["dice.example"], "secretName": "dice-tls"}]
    (path,) = ingress["rules"][0]["http"]["paths"]
    assert path["backend"]["service"] == {
        "name": service["metadata"]["name"],
        "port": {"name": "http"},
    }
    assert "http" in {p["name"] for p in service["spec"]["ports"]}

    monitor = kinds["ServiceMonitor"]
    assert monitor["metadata"]["labels"]["release"] == "kube-prometheus-stack"
    assert (
        monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    )
    assert monitor["spec"]["namespaceSelector"] == {"matchNames": [NAMESPACE]}
    assert monitor["spec"]["endpoints"] == [
        {"port": "http", "path": "/metrics", "interval": "30s", "scrapeTimeout": "10s"}
    ]
    assert "/metrics" in app_paths()

    policy = kinds["NetworkPolicy"]["spec"]
    assert policy["podSelector"] == {"matchLabels": selector}
    assert policy["policyTypes"] == ["Ingress", "Egress"]
    (allowed,) = policy["ingress"]
    assert allowed["ports"] == [{"port": "http", "protocol": "TCP"}]
    namespaces = {
        p["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"]
        for p in allowed["from"]
    }
    assert namespaces == {"ingress-nginx", "monitoring"}
    dns, redis_rule, extra = policy["egress"]
    assert {p["port"] for p in dns["ports"]} == {53}
    assert redis_rule["ports"] == [{"port": 6380, "protocol": "TCP"}]
    assert redis_rule["to"] == EVERYTHING_ON["networkPolicy"]["redisEgress"]["to"]
    assert extra == {"ports": [{"port": 4317, "protocol": "TCP"}]}


def test_without_redis_the_policy_opens_no_redis_egress() -> None:
    kinds = render({"networkPolicy": {"enabled": True}})
    validate_manifests(kinds)
    (dns,) = kinds["NetworkPolicy"]["spec"]["egress"]
    assert {p["port"] for p in dns["ports"]} == {53}
    kinds = render({"networkPolicy": {"enabled": True}, "redis": {"url": "redis://r:6379/0"}})
    assert [r["ports"][0]["port"] for r in kinds["NetworkPolicy"]["spec"]["egress"]] == [
        53,
        53,
        6379,
    ][1:]


def test_spreading_can_be_turned_off_or_given_its_own_selector() -> None:
    pod = render({"topologySpreadConstraints": []})["Deployment"]["spec"]["template"]["spec"]
    assert "topologySpreadConstraints" not in pod
    own = {"matchLabels": {"tier": "dice"}}
    constraint = {
        "maxSkew": 2,
        "topologyKey": "kubernetes.io/hostname",
        "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": own,
    }
    kinds = render({"topologySpreadConstraints": [constraint]})
    validate_manifests(kinds)
    (rendered,) = kinds["Deployment"]["spec"]["template"]["spec"]["topologySpreadConstraints"]
    assert rendered == constraint


def test_a_wrong_manifest_would_fail_validation() -> None:
    """The validation is strict: a field Kubernetes does not know fails it."""
    kinds = render()
    kinds["Service"]["spec"]["ports"][0]["targetPorts"] = "http"
    with pytest.raises(kubernetes_validate.ValidationError):
        validate_manifests(kinds)


def test_the_grace_period_covers_the_prestop_sleep_and_the_drain() -> None:
    """SIGKILL must never come before diceref's own shutdown deadline (issue 18)."""
    from diceref.settings import Settings

    shutdown = values()["shutdown"]
    assert shutdown["timeoutSeconds"] == Settings().shutdown_timeout == 20
    grace = shutdown["terminationGracePeriodSeconds"]
    assert grace >= shutdown["preStopSleepSeconds"] + shutdown["timeoutSeconds"] + 5
    deployment = (TEMPLATES / "deployment.yaml").read_text()
    assert (
        "terminationGracePeriodSeconds: {{ .Values.shutdown.terminationGracePeriodSeconds }}"
        in (deployment)
    )
    assert '["sleep", {{ .Values.shutdown.preStopSleepSeconds | quote }}]' in deployment
    configmap = (TEMPLATES / "configmap.yaml").read_text()
    assert "DICEREF_SHUTDOWN_TIMEOUT: {{ .Values.shutdown.timeoutSeconds | quote }}" in configmap
