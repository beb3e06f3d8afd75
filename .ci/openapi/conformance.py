#!/usr/bin/env python3
"""PassSandbox and the SDK against Adobe's OpenAPI descriptions, with third-party tools.

Run by `.ci/conformance` inside a throwaway virtual environment that has Schemathesis and
openapi-core; it needs nothing else. Three steps:

  overlay   REFERENCE_DIR OUT_DIR
      Copies Adobe's restApiV2.json and dcrApi.json into OUT_DIR with the corrections of
      overlay.json applied (each names the Adobe page that contradicts the OpenAPI file).
  fuzz      SPECS_DIR BASE_URL WORK_DIR SANDBOX_LOG
      Creates fixtures in the running sandbox at BASE_URL (a registered client and its
      access token, authentication sessions and their codes, a signed-in profile; the single
      sign-on tokens the sandbox printed in SANDBOX_LOG), then runs
      Schemathesis with every phase (examples, coverage, fuzzing, stateful) against both
      corrected descriptions. Prints the figures; fails on any failed check.
  validate  SPECS_DIR RECORDING
      Validates every SDK request in a PASS_SANDBOX_RECORD file against the corrected
      descriptions with openapi-core. Prints the figures; fails on any deviation.
"""

import base64
import copy
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
# The bounds of the Schemathesis run, per description: examples per operation and phase, and
# the time after which fuzzing and stateful testing stop (each description takes about this
# long). The seed makes a run's first cases replayable.
MAX_EXAMPLES = 25
MAX_SECONDS = 150
SEED = 20260101
SPEC_FILES = {"restApiV2.json": "/api/v2", "dcrApi.json": "/o"}
# Where each corrected description is deployed: the sandbox serves both under one origin.
SANDBOX_ORIGIN = "http://sandbox.conformance"


# ---------------------------------------------------------------------------------------
# Overlay: corrections applied as JSON Patch operations (plus `merge`, `*` and `[name=X]`).

def _segments(path):
    if path == "":
        return []
    if not path.startswith("/"):
        raise ValueError(f"not a JSON pointer: {path}")
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def _children(node, segment):
    """The (key, child) pairs `segment` selects in `node`."""
    if segment == "*":
        if isinstance(node, dict):
            return list(node.items())
        if isinstance(node, list):
            return list(enumerate(node))
        return []
    if segment.startswith("[name=") and segment.endswith("]"):
        wanted = segment[len("[name="):-1]
        if isinstance(node, list):
            return [(index, item) for index, item in enumerate(node) if isinstance(item, dict) and item.get("name") == wanted]
        return []
    if isinstance(node, dict):
        return [(segment, node[segment])] if segment in node else []
    if isinstance(node, list) and segment.isdigit() and int(segment) < len(node):
        return [(int(segment), node[int(segment)])]
    return []


def _resolve_parents(document, segments):
    """Every (container, last segment) the path's parent selects."""
    parents = [document]
    for segment in segments[:-1]:
        parents = [child for parent in parents for _, child in _children(parent, segment)]
    return parents


def apply_patch(document, operation):
    """Applies one operation; returns how many places it changed."""
    segments = _segments(operation["path"])
    wildcard = any(segment == "*" for segment in segments)
    changed = 0
    for parent in _resolve_parents(document, segments):
        last = segments[-1]
        op = operation["op"]
        if op == "add" and isinstance(parent, list) and last == "-":
            parent.append(copy.deepcopy(operation["value"]))
            changed += 1
            continue
        if op == "add" and isinstance(parent, dict):
            parent[last] = copy.deepcopy(operation["value"])
            changed += 1
            continue
        targets = _children(parent, last)
        for key, child in targets:
            if op == "replace":
                parent[key] = copy.deepcopy(operation["value"])
            elif op == "remove":
                del parent[key]
            elif op == "merge":
                if not isinstance(child, dict):
                    raise ValueError(f"merge into a non-object at {operation['path']}")
                child.update(copy.deepcopy(operation["value"]))
            else:
                raise ValueError(f"unsupported op {op}")
            changed += 1
    if changed == 0 and not wildcard:
        raise ValueError(f"{operation['op']} {operation['path']}: the path does not exist")
    if changed == 0:
        raise ValueError(f"{operation['op']} {operation['path']}: no place matches")
    return changed


def corrected_specs(reference_dir, overlay_path):
    """Adobe's descriptions with every correction applied, keyed by file name."""
    specs = {}
    for name in SPEC_FILES:
        path = os.path.join(reference_dir, name)
        if not os.path.isfile(path):
            raise SystemExit(f"conformance: {path} is missing (the directory must hold Adobe's restApiV2.json and dcrApi.json)")
        with open(path, encoding="utf-8") as handle:
            specs[name] = json.load(handle)
    with open(overlay_path, encoding="utf-8") as handle:
        overlay = json.load(handle)
    for correction in overlay["corrections"]:
        for key in ("id", "spec", "source", "says", "patch"):
            if not correction.get(key):
                raise SystemExit(f"conformance: correction {correction.get('id', '?')} has no {key}")
        for operation in correction["patch"]:
            try:
                apply_patch(specs[correction["spec"]], operation)
            except (ValueError, KeyError) as problem:
                raise SystemExit(f"conformance: correction {correction['id']}: {problem}")
    for name, base_path in SPEC_FILES.items():
        specs[name]["servers"] = [{"url": SANDBOX_ORIGIN + base_path}]
    return specs, overlay["corrections"]


def command_overlay(reference_dir, out_dir):
    specs, corrections = corrected_specs(reference_dir, os.path.join(HERE, "overlay.json"))
    os.makedirs(out_dir, exist_ok=True)
    for name, spec in specs.items():
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as handle:
            json.dump(spec, handle, indent=1)
    print(f"overlay: {len(corrections)} corrections applied to {', '.join(SPEC_FILES)}")


# ---------------------------------------------------------------------------------------
# Fixtures: a client, a token and sessions in the running sandbox, so that valid requests
# reach the handlers instead of stopping at 401 or an unknown code.

def device_info(**fields):
    return base64.b64encode(json.dumps(fields, separators=(",", ":")).encode()).decode()


# A device description within the X-Device-Info page's required keys and restricted values.
DEVICE_INFO = device_info(primaryHardwareType="SetTopBox", model="Conformance Box", version="1.0", manufacturer="Example",
                          osName="Linux", osFamily="Linux", osVersion="6.1", connectionType="LAN")
DEVICE = "fingerprint " + base64.b64encode(b"conformance-device-1").decode()
# A device that only opens the sessions resumed during the run: it never has a profile, so
# resuming one of them never ends it.
RESUMING_DEVICE = "fingerprint " + base64.b64encode(b"conformance-device-2").decode()
REDIRECT_URL = "adobepass://ios.app"


def http(method, url, headers=None, body=None):
    request = urllib.request.Request(url, data=body.encode() if isinstance(body, str) else body, method=method, headers=headers or {})

    class NoRedirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirects)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def http_json(method, url, headers=None, body=None, expect=(200, 201)):
    status, data = http(method, url, headers, body)
    if status not in expect:
        raise SystemExit(f"conformance: fixture request {method} {url} answered {status}: {data[:300]!r}")
    return json.loads(data)


def create_fixtures(base):
    """Registers a client and opens the sessions the run uses; returns their values."""
    info = DEVICE_INFO
    registration = http_json("POST", base + "/o/client/register", {"Content-Type": "application/json", "X-Device-Info": info},
                             json.dumps({"software_statement": "STATEMENT", "redirect_uri": REDIRECT_URL}))
    form = urllib.parse.urlencode({"client_id": registration["client_id"], "client_secret": registration["client_secret"],
                                   "grant_type": "client_credentials"})
    token = http_json("POST", base + "/o/client/token", {"Content-Type": "application/x-www-form-urlencoded", "X-Device-Info": info}, form)
    bearer = "Bearer " + token["access_token"]

    def open_session(device, **parameters):
        headers = {"Authorization": bearer, "AP-Device-Identifier": device, "X-Device-Info": info,
                   "Content-Type": "application/x-www-form-urlencoded"}
        return http_json("POST", base + "/api/v2/REF30/sessions", headers, urllib.parse.urlencode(parameters))["code"]

    complete = {"domainName": "adobe.com", "redirectUrl": REDIRECT_URL}
    fixtures = {"client_id": registration["client_id"], "client_secret": registration["client_secret"], "bearer": bearer}
    # Sessions waiting for a login: one to read (GET sessions/{code}), one to open in a user
    # agent (the authenticate URL).
    fixtures["information_code"] = open_session(DEVICE, mvpd="NotBoarded", **complete)
    fixtures["authenticate_code"] = open_session(DEVICE, mvpd="AppleBoarded", **complete)
    # A session missing parameters, resumed during the run.
    fixtures["resumable_code"] = open_session(RESUMING_DEVICE, domainName="adobe.com")
    # A session whose login created a profile: profiles/code answers it.
    fixtures["signed_in_code"] = open_session(DEVICE, mvpd="NotBoarded", **complete)
    status, _ = http("POST", base + "/mvpd/NotBoarded/login", {"Content-Type": "application/x-www-form-urlencoded"},
                     urllib.parse.urlencode({"code": fixtures["signed_in_code"], "username": "alice", "password": "alice123"}))
    if status != 302:
        raise SystemExit(f"conformance: the fixture login answered {status}")
    return fixtures


def with_fixture_examples(specs, fixtures):
    """The corrected descriptions with `example` values for the body fields whose valid values
    only the sandbox's state defines. Schemathesis's coverage phase sends a field's example as
    its valid value (the fuzzing phase uses the fixed values of the configuration). These are
    fixtures of this run, not corrections: nothing in Adobe's pages is changed by them."""
    specs = copy.deepcopy(specs)
    rest = specs["restApiV2.json"]["components"]["schemas"]
    rest["createSessionUsingPOST_request"]["properties"]["mvpd"]["example"] = "SVCProvider"
    rest["createSessionUsingPOST_request"]["properties"]["domainName"]["example"] = "adobe.com"
    rest["retrieveVerificationTokenUsingPOST_request"]["properties"]["domainName"]["example"] = "adobe.com"
    dcr = specs["dcrApi.json"]
    dcr["components"]["schemas"]["ClientRegistrationRequest"]["properties"]["software_statement"]["example"] = "STATEMENT"
    token = dcr["paths"]["/client/token"]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]["properties"]
    token["client_id"]["example"] = fixtures["client_id"]
    token["client_secret"]["example"] = fixtures["client_secret"]
    # The stateful phase follows a registration with a token request for the credentials it
    # returned: both of them (an inferred link would carry the identifier alone).
    dcr["paths"]["/client/register"]["post"]["responses"]["201"]["links"] = {"AccessToken": {
        "operationId": "generateAccessTokenUsingPOST",
        "requestBody": {"client_id": "$response.body#/client_id", "client_secret": "$response.body#/client_secret",
                        "grant_type": "client_credentials"}}}
    return specs


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(key)} = {toml_value(item)}" for key, item in value.items()) + " }"
    raise TypeError(value)


def schemathesis_configs(fixtures, max_examples, max_time):
    """One Schemathesis configuration per description: bounded phases, and fixture values for
    the parameters whose valid values only the sandbox's state defines (identifiers,
    credentials, codes). Fixed values are not generated, so every other parameter is still
    generated and negated in every phase."""
    common = [
        "# Written by .ci/openapi/conformance.py for one run.",
        "continue-on-failure = true",
        "max-redirects = 0",
        "request-timeout = 15",
        "workers = 1",
        f"max-time = {max_time}",
        "suppress-health-check = [\"all\"]",
        "",
        "[generation]",
        f"max-examples = {max_examples}",
    ]

    def operation(operation_id, parameters=None, disabled_checks=(), disabled_stateful_checks=()):
        lines = ["", "[[operations]]", f"include-operation-id = {json.dumps(operation_id)}"]
        if parameters:
            lines.append(f"parameters = {toml_value(parameters)}")
        for check in disabled_checks:
            lines += ["", "[operations.checks." + check + "]", "enabled = false"]
        for check in disabled_stateful_checks:
            lines += ["", "[operations.phases.stateful.checks." + check + "]", "enabled = false"]
        return lines

    rest = common + ["", "[parameters]"] + [f"{json.dumps(key)} = {toml_value(value)}" for key, value in {
        "path.serviceProvider": "REF30",
        "path.partner": "Apple",
        "header.Authorization": fixtures["bearer"],
        "header.AP-Device-Identifier": DEVICE,
        "header.X-Device-Info": DEVICE_INFO,
        "header.AD-Service-Token": fixtures["identity_tokens"]["AD-Service-Token"],
        "header.Adobe-Subject-Token": fixtures["identity_tokens"]["Adobe-Subject-Token"],
    }.items()]
    rest += operation("createSessionUsingPOST", {"body.mvpd": "SVCProvider"})
    rest += operation("resumeSessionUsingPOST", {"path.code": fixtures["resumable_code"], "body.mvpd": "SVCProvider"})
    rest += operation("getSessionStatusUsingGET_1", {"path.code": fixtures["information_code"]})
    rest += operation("startAuthenticationUsingGET", {"path.code": fixtures["authenticate_code"]})
    rest += operation("getProfileForCodeUsingGET_1", {"path.code": fixtures["signed_in_code"]})
    rest += operation("getProfileForMvpdUsingGET", {"path.mvpd": "NotBoarded"})
    rest += operation("retrieveAuthorizeDecisionsForMvpdUsingPOST", {"path.mvpd": "NotBoarded"})
    rest += operation("retrievePreAuthorizeDecisionsForMvpdUsingPOST_1", {"path.mvpd": "Degraded"})
    rest += operation("getLogoutForMvpdUsingGET", {"path.mvpd": "TempPass"})
    # A valid SAMLResponse is a signed, single-use answer to a SAML request the sandbox issued
    # moments before: no generator can produce one, so schema-valid requests are refused (400).
    rest += operation("createPartnerProfileUsingPOST", disabled_checks=["positive_data_acceptance"])

    dcr = common + ["", "[parameters]"] + [f"{json.dumps(key)} = {toml_value(value)}" for key, value in {
        "header.X-Device-Info": DEVICE_INFO,
    }.items()]
    dcr += operation("processSoftwareStatementUsingPOST", {"body.software_statement": "STATEMENT"})
    # Stateful sequences pair a registration's client_id with a client_secret they draw on
    # their own (of another registration): the sandbox rightly answers invalid_client (400).
    dcr += operation("generateAccessTokenUsingPOST", {"body.client_id": fixtures["client_id"], "body.client_secret": fixtures["client_secret"]},
                     disabled_stateful_checks=["positive_data_acceptance"])
    return {"restApiV2.json": "\n".join(rest) + "\n", "dcrApi.json": "\n".join(dcr) + "\n"}


def run_schemathesis(spec_path, base_url, config_path, report_dir, work_dir):
    command = [
        "schemathesis", "--config-file", config_path, "--no-color", "run", spec_path, "--url", base_url,
        "--phases", "examples,coverage,fuzzing,stateful",
        "--report", "junit,ndjson", "--report-dir", report_dir, "--seed", str(SEED),
    ]
    print("$ " + " ".join(command[:6] + ["…"]), flush=True)
    started = time.monotonic()
    # Run in the work directory: Schemathesis keeps its cache (.schemathesis) where it runs.
    completed = subprocess.run(command, text=True, capture_output=True, cwd=work_dir, timeout=MAX_SECONDS + 300)
    elapsed = time.monotonic() - started
    return completed, elapsed


def summarize(report_dir):
    """Figures of one Schemathesis run, read from its NDJSON report: operations tested, test
    cases and requests per phase, checks run, checks failed."""
    reports = sorted(name for name in os.listdir(report_dir) if name.endswith(".ndjson"))
    if not reports:
        raise SystemExit(f"conformance: Schemathesis wrote no report in {report_dir}")
    figures = {"operations": 0, "requests": 0, "checks": 0, "failures": 0, "phases": {}, "statuses": {}}
    with open(os.path.join(report_dir, reports[-1]), encoding="utf-8") as handle:
        for line in handle:
            event = json.loads(line)
            if "LoadingFinished" in event:
                figures["operations"] = event["LoadingFinished"]["statistic"]["operations"]["selected"]
            finished = event.get("ScenarioFinished")
            if not finished:
                continue
            recorder = finished.get("recorder", {})
            interactions = recorder.get("interactions", {})
            phase = figures["phases"].setdefault(finished["phase"], {"requests": 0, "failures": 0})
            figures["requests"] += len(interactions)
            phase["requests"] += len(interactions)
            for interaction in interactions.values():
                status = str((interaction.get("response") or {}).get("status_code", "none"))
                figures["statuses"][status] = figures["statuses"].get(status, 0) + 1
            for results in recorder.get("checks", {}).values():
                for result in results:
                    figures["checks"] += 1
                    if result.get("status") == "failure":
                        figures["failures"] += 1
                        phase["failures"] += 1
    return figures


def identity_tokens(sandbox_log):
    """The single sign-on tokens `accessenabler sandbox` printed for its default identity
    services, by header name: the valid values of the optional AD-Service-Token and
    Adobe-Subject-Token headers (a random string is a token the sandbox rightly refuses)."""
    tokens = {}
    with open(sandbox_log, encoding="utf-8") as handle:
        for line in handle:
            match = re.match(r"\s+sandbox-(identity|platform) \([^,]+, ([A-Za-z-]+)\): ([A-Za-z0-9_.-]+)$", line.rstrip("\n"))
            if match:
                tokens[match.group(2)] = match.group(3)
    for header in ("AD-Service-Token", "Adobe-Subject-Token"):
        if header not in tokens:
            raise SystemExit(f"conformance: the sandbox printed no {header} token (see {sandbox_log})")
    return tokens


def command_fuzz(specs_dir, base, work_dir, sandbox_log):
    os.makedirs(work_dir, exist_ok=True)
    fixtures = create_fixtures(base)
    fixtures["identity_tokens"] = identity_tokens(sandbox_log)
    configs = schemathesis_configs(fixtures, MAX_EXAMPLES, MAX_SECONDS)
    specs = {}
    for name in SPEC_FILES:
        with open(os.path.join(specs_dir, name), encoding="utf-8") as handle:
            specs[name] = json.load(handle)
    for name, spec in with_fixture_examples(specs, fixtures).items():
        with open(os.path.join(work_dir, "run-" + name), "w", encoding="utf-8") as handle:
            json.dump(spec, handle, indent=1)
    failed = False
    for name, base_path in SPEC_FILES.items():
        report_dir = os.path.join(work_dir, name.replace(".json", ""))
        config_path = os.path.join(work_dir, name.replace(".json", ".toml"))
        with open(config_path, "w", encoding="utf-8") as handle:
            handle.write(configs[name])
        completed, elapsed = run_schemathesis(os.path.join(work_dir, "run-" + name), base + base_path, config_path, report_dir, work_dir)
        if completed.returncode != 0:
            # The whole report: every failure with the request that reproduces it.
            print(completed.stdout[-60000:])
            print(completed.stderr[-5000:], file=sys.stderr)
            failed = True
        figures = summarize(report_dir)
        phases = ", ".join(f"{phase} {values['requests']}" for phase, values in figures["phases"].items())
        statuses = ", ".join(f"{status}: {count}" for status, count in sorted(figures["statuses"].items()))
        print(f"fuzz {name}: {figures['operations']} operations, {figures['requests']} requests ({phases}), "
              f"{figures['checks']} checks, {figures['failures']} failed; statuses {statuses}; "
              f"Schemathesis exit {completed.returncode} after {elapsed:.0f} s (seed {SEED})", flush=True)
        if figures["failures"] or figures["requests"] == 0:
            failed = True
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------
# The SDK's side of the wire: every recorded SDK request against the corrected descriptions.

SDK_USER_AGENT_PREFIX = "AccessEnabler-Linux/"
CHECKLIST_HEADERS = ("Authorization", "AP-Device-Identifier", "X-Device-Info")


class RecordedRequest:
    """One line of a PASS_SANDBOX_RECORD file as openapi-core reads a request."""

    def __init__(self, record):
        from openapi_core.datatypes import RequestParameters
        from werkzeug.datastructures import Headers, ImmutableMultiDict

        self.method = record["method"].lower()
        self.host_url = SANDBOX_ORIGIN
        self.path = record["path"]
        headers = Headers([(name, value) for name, value in record["headers"]])
        self.parameters = RequestParameters(
            path={}, query=ImmutableMultiDict([(name, value) for name, value in record["query"]]),
            header=headers, cookie=ImmutableMultiDict())
        self.content_type = (headers.get("Content-Type") or "").lower()
        if "bodyBase64" in record:
            self.body = base64.b64decode(record["bodyBase64"])
        else:
            self.body = record.get("body", "").encode()
        if not self.body:
            self.body = None


def command_validate(specs_dir, recording):
    from openapi_core import OpenAPI

    apis = {}
    for name, base_path in SPEC_FILES.items():
        with open(os.path.join(specs_dir, name), encoding="utf-8") as handle:
            apis[base_path] = OpenAPI.from_dict(json.load(handle))
    if not os.path.isfile(recording):
        raise SystemExit(f"conformance: no recording at {recording}")
    total = sdk = 0
    operations = {}
    deviations = []
    with open(recording, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            record = json.loads(line)
            total += 1
            agent = next((value for name, value in record["headers"] if name.lower() == "user-agent"), "")
            if not agent.startswith(SDK_USER_AGENT_PREFIX):
                continue
            sdk += 1
            base_path = "/api/v2" if record["path"].startswith("/api/v2/") else "/o"
            # Adobe's checklist: Authorization, AP-Device-Identifier and X-Device-Info on every
            # REST API V2 request, whatever an operation's own page lists.
            if base_path == "/api/v2":
                present = {name.lower() for name, value in record["headers"] if value.strip()}
                missing = [name for name in CHECKLIST_HEADERS if name.lower() not in present]
                if missing:
                    deviations.append(f"line {number}: {record['method']} {record['path']} -> missing {', '.join(missing)} (the checklist: every REST API V2 request)")
                    continue
            request = RecordedRequest(record)
            key = f"{record['method']} {record['path']}"
            try:
                apis[base_path].validate_request(request)
                operations[key] = operations.get(key, 0) + 1
            except Exception as error:  # openapi-core reports every finding as an exception
                details = "; ".join(str(cause) for cause in getattr(error, "__cause__", None) and [error.__cause__] or [])
                deviations.append(f"line {number}: {record['method']} {record['path']} -> {type(error).__name__}: {error} {details}".strip())
    print(f"validate: {total} requests recorded, {sdk} sent by the SDK (User-Agent {SDK_USER_AGENT_PREFIX}…), "
          f"{sdk - len(deviations)} valid, {len(deviations)} deviations")
    for deviation in deviations[:50]:
        print("  " + deviation)
    if sdk == 0:
        print("validate: the recording holds no SDK request", file=sys.stderr)
        return 1
    return 1 if deviations else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "overlay":
        command_overlay(argv[1], argv[2])
        return 0
    if len(argv) >= 5 and argv[0] == "fuzz":
        return command_fuzz(argv[1], argv[2].rstrip("/"), argv[3], argv[4])
    if len(argv) >= 3 and argv[0] == "validate":
        return command_validate(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
