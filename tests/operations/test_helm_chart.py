"""The Helm chart: values.yaml against values.schema.json, probe paths and ports against the
app, every value a template reads present in values.yaml, and `helm lint` / `helm template`
when helm is on PATH (it cannot be installed on the development machines)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
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


HELM = shutil.which("helm")
needs_helm = pytest.mark.skipif(HELM is None, reason="helm is not installed on this machine")


@needs_helm
def test_helm_lint() -> None:
    assert HELM is not None
    run = subprocess.run([HELM, "lint", str(CHART)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


@needs_helm
@pytest.mark.parametrize("autoscaling", [True, False])
def test_helm_template(autoscaling: bool) -> None:
    assert HELM is not None
    cmd = [HELM, "template", "diceref", str(CHART), "--set", f"autoscaling.enabled={autoscaling}"]
    cmd += ["--set", "redis.url=redis://redis:6379/0"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    docs = [d for d in yaml.safe_load_all(run.stdout) if d]
    kinds = {d["kind"]: d for d in docs}
    expected = {"Deployment", "Service", "ConfigMap", "PodDisruptionBudget"}
    assert expected | ({"HorizontalPodAutoscaler"} if autoscaling else set()) == set(kinds)
    container = kinds["Deployment"]["spec"]["template"]["spec"]["containers"][0]
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["ports"][0] == {"name": "http", "containerPort": 8000, "protocol": "TCP"}
    assert kinds["ConfigMap"]["data"]["DICEREF_PORT"] == "8000"
    assert kinds["ConfigMap"]["data"]["REDIS_URL"] == "redis://redis:6379/0"
    assert ("replicas" in kinds["Deployment"]["spec"]) is not autoscaling
    pod = kinds["Deployment"]["spec"]["template"]["spec"]
    assert pod["terminationGracePeriodSeconds"] == 30
    assert container["lifecycle"]["preStop"]["exec"]["command"] == ["sleep", "5"]
    assert kinds["ConfigMap"]["data"]["DICEREF_SHUTDOWN_TIMEOUT"] == "20"


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
