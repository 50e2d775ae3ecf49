//! `fnhcl function serve` as an attacker or an unlucky caller meets it (issue 28): calls that
//! run long or are abandoned, deep values, connections that never speak, a log nobody reads,
//! bad certificates, oversized and malformed messages. Servers listen on free loopback ports;
//! every wait is bounded and every server is stopped (killed if a test fails).

use fnhcl::grpc::{convert, pb, server, service};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The longest any single wait of these tests lasts before it counts as a hang.
const WAIT: Duration = Duration::from_secs(30);

/// A `fnhcl function serve` process, killed when dropped.
struct Process {
    child: Child,
    lines: Option<Receiver<String>>,
    address: String,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Process {
    /// Starts the server with `args` (plus a free loopback port unless `args` name one) and
    /// reads its first line; with `drain`, every later line goes to [`Process::line`], without
    /// it standard error is never read again.
    fn start(dir: &std::path::Path, args: &[&str], drain: bool) -> Process {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fnhcl"));
        command
            .current_dir(dir)
            .args(["function", "serve"])
            .args(args);
        if !args.contains(&"--address") {
            command.args(["--address", "127.0.0.1:0"]);
        }
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        // The first line comes at once; a server that cannot start exits and closes the pipe.
        stderr.read_line(&mut first).unwrap();
        let address = first
            .strip_prefix("fnhcl function serve: listening on ")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("unexpected first line: {first}"))
            .to_string();
        let lines = if drain {
            let (send, lines) = channel();
            std::thread::spawn(move || {
                for line in stderr.lines().map_while(Result::ok) {
                    if send.send(line).is_err() {
                        break;
                    }
                }
            });
            Some(lines)
        } else {
            // Kept open and never read.
            std::mem::forget(stderr);
            None
        };
        Process {
            child,
            lines,
            address,
        }
    }

    fn line(&self) -> String {
        self.lines
            .as_ref()
            .expect("drained")
            .recv_timeout(WAIT)
            .expect("a log line in time")
    }

    /// Sends SIGTERM and waits (bounded) for the exit code.
    fn terminate(&mut self) -> Option<i32> {
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(Instant::now() < deadline, "the server did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A request whose inline program is `hcl`.
fn request(tag: &str, hcl: &str) -> pb::RunFunctionRequest {
    let json: fnhcl::eval::proto::RunFunctionRequest = serde_json::from_value(serde_json::json!({
        "meta": {"tag": tag},
        "observed": {"composite": {"resource": {
            "apiVersion": "example.org/v1", "kind": "XApp",
            "metadata": {"name": "app"}, "spec": {"size": 2}}}},
        "input": {"apiVersion": "hcl.fn.crossplane.io/v1beta1", "kind": "HclInput",
            "hcl": format!("-- main.hcl --\n{hcl}")}
    }))
    .unwrap();
    convert::request_to_pb(&json).unwrap()
}

const CONFIG_MAP: &str = "resource cm {\n  body = {\n    apiVersion = \"v1\"\n    kind = \"ConfigMap\"\n    data = { size = tostring(req.composite.spec.size) }\n  }\n}\n";

/// Three nested `for` over `range(1024)`: minutes of evaluation.
const LONG: &str = "locals {\n  n = sum([for i in range(1024): sum([for j in range(1024): sum([for k in range(1024): k])])])\n}\nresource cm {\n  body = {\n    apiVersion = \"v1\"\n    kind = \"ConfigMap\"\n    data = { n = tostring(n) }\n  }\n}\n";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Runtime::new().unwrap()
}

fn call(
    runtime: &tokio::runtime::Runtime,
    address: &str,
    request: pb::RunFunctionRequest,
    timeout: Duration,
) -> Result<pb::RunFunctionResponse, service::CallError> {
    runtime.block_on(service::call(address, request, timeout))
}

/// The High row: a long program called with a short `grpc-timeout`, the caller gone after it.
/// Before, the evaluation went on at 100 % of a core and SIGTERM could not stop the server;
/// now the call ends at its deadline (or when abandoned), says so in the log, and the server
/// stops at once.
#[cfg(unix)]
#[test]
fn a_long_call_ends_at_its_deadline_and_the_server_still_stops() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Process::start(dir.path(), &["--insecure", "--log-format", "json"], true);
    let rt = runtime();
    // The deadline (DeadlineExceeded, or Cancelled as tonic words its own), or a budget on
    // what one evaluation builds ending it first as a fatal result.
    match call(
        &rt,
        &server.address,
        request("long", LONG),
        Duration::from_millis(500),
    ) {
        Err(e) => assert!(
            e.to_string().contains("code = DeadlineExceeded")
                || e.to_string().contains("code = Cancelled"),
            "{e}"
        ),
        Ok(response) => assert!(
            response
                .results
                .iter()
                .any(|r| r.severity == pb::Severity::Fatal as i32),
            "{response:?}"
        ),
    }
    drop(rt);
    // The evaluation ended: its line is written when it returns. (A budget on the values one
    // evaluation builds may end it first, as a fatal result.)
    let line: serde_json::Value = serde_json::from_str(&server.line()).unwrap();
    assert_eq!(line["tag"], "long", "{line}");
    assert!(
        line["error"] == "deadline exceeded"
            || line["error"] == "cancelled"
            || line["fatal"] == true,
        "{line}"
    );
    // A later call is served as ever.
    let rt = runtime();
    let answered = call(&rt, &server.address, request("next", CONFIG_MAP), WAIT).unwrap();
    assert_eq!(answered.meta.unwrap().tag, "next");
    assert_eq!(server.terminate(), Some(0));
}

/// A call still evaluating when SIGTERM comes is given the grace period, then cancelled; a
/// second signal stops the server at once.
#[cfg(unix)]
#[test]
fn a_second_signal_cancels_calls_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Process::start(dir.path(), &["--insecure", "--timeout", "10m"], true);
    let address = server.address.clone();
    let caller =
        std::thread::spawn(move || call(&runtime(), &address, request("long", LONG), WAIT));
    // The call is in flight once the server has it; give it that moment.
    std::thread::sleep(Duration::from_millis(300));
    let pid = server.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let stopping = server.line();
    assert!(stopping.contains("stopping ("), "{stopping}");
    assert_eq!(server.terminate(), Some(0));
    // Cancelled, or (with a budget that ended it first) answered: either way it returned.
    let _ = caller.join().unwrap();
}

/// An idle TCP connection (and an idle HTTP/2 one) no longer keeps SIGTERM from stopping
/// the server.
#[cfg(unix)]
#[test]
fn idle_connections_do_not_hold_the_stop() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Process::start(dir.path(), &["--insecure"], true);
    let _raw = TcpStream::connect(&server.address).unwrap();
    let rt = runtime();
    let channel = rt
        .block_on(
            tonic::transport::Endpoint::from_shared(format!("http://{}", server.address))
                .unwrap()
                .connect(),
        )
        .unwrap();
    assert_eq!(server.terminate(), Some(0));
    drop(channel);
}

/// The request log is written by a thread of its own: with standard error a pipe nobody
/// reads, requests are still answered (before, every request hung after about 590).
#[cfg(unix)]
#[test]
fn an_unread_log_never_blocks_a_request() {
    let dir = tempfile::tempdir().unwrap();
    let server = Process::start(dir.path(), &["--insecure"], false);
    let rt = runtime();
    let channel = rt
        .block_on(
            tonic::transport::Endpoint::from_shared(format!("http://{}", server.address))
                .unwrap()
                .connect(),
        )
        .unwrap();
    // A long tag makes each line long: the 64 KiB pipe fills after a few hundred lines.
    let tag = "t".repeat(400);
    for i in 0..1500 {
        let answered = rt
            .block_on(async {
                tokio::time::timeout(
                    Duration::from_secs(10),
                    service::call_on(channel.clone(), &server.address, request(&tag, "")),
                )
                .await
            })
            .unwrap_or_else(|_| panic!("request {i} hung"))
            .unwrap();
        assert_eq!(answered.meta.unwrap().tag, tag);
    }
}

/// `--insecure` alone listens on loopback (function SDKs listen on every interface).
#[cfg(unix)]
#[test]
fn insecure_listens_on_loopback_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .current_dir(dir.path())
        .args(["function", "serve", "--insecure"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    // Port 9443 may be taken on a shared machine: then the error names the address.
    assert!(
        first.contains("listening on 127.0.0.1:9443 (plaintext gRPC)")
            || first.contains("cannot listen on 127.0.0.1:9443"),
        "{first}"
    );
}

/// A CA that signs certificates for the tests.
struct Ca {
    cert: rcgen::Certificate,
    key: rcgen::KeyPair,
}

impl Ca {
    fn new() -> Ca {
        use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let cert = params.self_signed(&key).unwrap();
        Ca { cert, key }
    }

    fn pem(&self) -> String {
        self.cert.pem()
    }

    /// A certificate for `names` with these extended key usages (none: any), and its key.
    fn sign(
        &self,
        names: &[&str],
        usages: Vec<rcgen::ExtendedKeyUsagePurpose>,
    ) -> (String, String) {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params =
            rcgen::CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())
                .unwrap();
        params.extended_key_usages = usages;
        let cert = params.signed_by(&key, &self.cert, &self.key).unwrap();
        (cert.pem(), key.serialize_pem())
    }
}

/// PEM certificates for a CA, a server (`localhost`, 127.0.0.1) and a client it signs.
fn test_pki() -> (Ca, [(String, String); 2]) {
    let ca = Ca::new();
    let server = ca.sign(&["localhost", "127.0.0.1"], Vec::new());
    let client = ca.sign(&["client"], Vec::new());
    (ca, [server, client])
}

/// Bad certificate files are refused before listening, naming the file; a bad CA fails
/// closed (before, "listening on" was printed, then exit 2 "transport error").
#[cfg(unix)]
#[test]
fn bad_certificates_fail_before_listening() {
    let dir = tempfile::tempdir().unwrap();
    let (ca, [(cert, key), (_, other_key)]) = test_pki();
    let ca = ca.pem();
    let certs = dir.path().join("tls");
    std::fs::create_dir(&certs).unwrap();
    let cases: [(&str, &str, &str, &str); 5] = [
        (
            "garbage",
            &key,
            &ca,
            "cannot read `tls/tls.crt`: it holds no PEM certificate",
        ),
        (
            &cert,
            "-----BEGIN PRIVATE KEY-----\n!!!\n-----END PRIVATE KEY-----\n",
            &ca,
            "cannot read `tls/tls.key`: the `PRIVATE KEY` block is not valid base64",
        ),
        (
            &cert,
            &key,
            "",
            "cannot read `tls/ca.crt`: it holds no PEM certificate",
        ),
        (
            &cert,
            &key,
            &key,
            "cannot read `tls/ca.crt`: it holds no PEM certificate",
        ),
        (
            &cert,
            &other_key,
            &ca,
            "cannot use the TLS certificates in `tls`",
        ),
    ];
    for (crt, tls_key, ca_crt, expected) in cases {
        std::fs::write(certs.join("tls.crt"), crt).unwrap();
        std::fs::write(certs.join("tls.key"), tls_key).unwrap();
        std::fs::write(certs.join("ca.crt"), ca_crt).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
            .current_dir(dir.path())
            .args([
                "function",
                "serve",
                "--tls-certs-dir",
                "tls",
                "--address",
                "127.0.0.1:0",
            ])
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
        assert!(!stderr.contains("listening on"), "{stderr}");
    }
    // A FIFO or a device is not read.
    std::fs::write(certs.join("tls.crt"), &cert).unwrap();
    std::fs::write(certs.join("tls.key"), &key).unwrap();
    std::fs::remove_file(certs.join("ca.crt")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", certs.join("ca.crt")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .current_dir(dir.path())
        .args([
            "function",
            "serve",
            "--tls-certs-dir",
            "tls",
            "--address",
            "127.0.0.1:0",
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot read `tls/ca.crt`: not a regular file"),
        "{stderr}"
    );
}

/// Mutual TLS refuses a client without a certificate, a self-signed one and one for server
/// authentication only; it answers one the CA signed for clients.
#[cfg(unix)]
#[test]
fn mutual_tls_refuses_what_it_must() {
    use rcgen::{CertificateParams, ExtendedKeyUsagePurpose, KeyPair};
    use tonic::transport::{Certificate, ClientTlsConfig, Identity};
    let dir = tempfile::tempdir().unwrap();
    let (authority, [(cert, key), (client_cert, client_key)]) = test_pki();
    let ca = authority.pem();
    let certs = dir.path().join("tls");
    std::fs::create_dir(&certs).unwrap();
    std::fs::write(certs.join("tls.crt"), &cert).unwrap();
    std::fs::write(certs.join("tls.key"), &key).unwrap();
    std::fs::write(certs.join("ca.crt"), &ca).unwrap();
    let server = Process::start(dir.path(), &["--tls-certs-dir", "tls"], true);
    let port = server.address.rsplit(':').next().unwrap().to_string();
    let target = format!("localhost:{port}");
    let trusted = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(&ca))
        .domain_name("localhost");
    let rt = runtime();
    let with = |identity: Option<Identity>| {
        let tls = match identity {
            Some(identity) => trusted.clone().identity(identity),
            None => trusted.clone(),
        };
        rt.block_on(service::call_with(
            &target,
            Some(tls),
            request("tls", ""),
            Duration::from_secs(10),
        ))
    };
    assert!(with(Some(Identity::from_pem(&client_cert, &client_key))).is_ok());
    assert!(with(None).is_err());
    // Self-signed.
    let own_key = KeyPair::generate().unwrap();
    let own = CertificateParams::new(vec!["client".to_string()])
        .unwrap()
        .self_signed(&own_key)
        .unwrap();
    assert!(with(Some(Identity::from_pem(own.pem(), own_key.serialize_pem()))).is_err());
    // Signed by the CA, but for server authentication only.
    let (server_only, server_only_key) =
        authority.sign(&["client"], vec![ExtendedKeyUsagePurpose::ServerAuth]);
    assert!(with(Some(Identity::from_pem(server_only, server_only_key))).is_err());
}

/// A server in this process with short connection timeouts, stopped when dropped.
struct InProcess {
    address: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    lines: Receiver<String>,
}

impl Drop for InProcess {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn in_process(timeouts: server::Timeouts) -> InProcess {
    let (send, lines) = channel::<String>();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let log: server::Log = Arc::new(move |line: &str| {
        let _ = send.send(line.to_string());
    });
    let thread = std::thread::spawn(move || {
        let options = server::Options {
            address: "127.0.0.1:0",
            tls_certs_dir: None,
            log_format: server::LogFormat::Json,
            timeouts,
        };
        server::serve_until(&options, log, || async {
            let _ = stopped.await;
        })
        .unwrap();
    });
    let first = lines.recv_timeout(WAIT).unwrap();
    let address = first
        .strip_prefix("fnhcl function serve: listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_string();
    InProcess {
        address,
        stop: Some(stop),
        thread: Some(thread),
        lines,
    }
}

/// A connection that sends nothing is closed after the handshake timeout; one that sent its
/// preface and then nothing at all, after the idle timeout.
#[test]
fn silent_connections_are_closed() {
    let server = in_process(server::Timeouts {
        handshake: Duration::from_millis(200),
        idle: Duration::from_millis(400),
        ..server::Timeouts::default()
    });
    let mut silent = TcpStream::connect(&server.address).unwrap();
    silent.set_read_timeout(Some(WAIT)).unwrap();
    let mut buf = [0u8; 256];
    // The server's SETTINGS, then the close: end of file (or a reset), not our read timeout.
    read_until_closed(&mut silent, &mut buf);
    let mut spoke = TcpStream::connect(&server.address).unwrap();
    spoke.set_read_timeout(Some(WAIT)).unwrap();
    spoke
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .unwrap();
    spoke.write_all(&[0, 0, 0, 4, 0, 0, 0, 0, 0]).unwrap();
    // The server's SETTINGS (and its ack of ours), then the close.
    assert!(read_until_closed(&mut spoke, &mut buf) > 0);
}

/// Reads until the peer closes; how many bytes came. Our own read timeout is a failure.
fn read_until_closed(stream: &mut TcpStream, buf: &mut [u8]) -> usize {
    let mut total = 0;
    loop {
        match stream.read(buf) {
            Ok(0) => return total,
            Ok(n) => total += n,
            Err(e) => {
                assert!(
                    !matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ),
                    "still open: {e}"
                );
                return total;
            }
        }
    }
}

/// Requests and responses with values nested past prost's default limit (31 objects) are
/// served, up to 1,000 levels; deeper is InvalidArgument, never a stack overflow.
#[test]
fn deep_values_travel_both_ways() {
    let server = in_process(server::Timeouts::default());
    let rt = runtime();
    let nested = |depth: usize| {
        let mut value = serde_json::json!("leaf");
        for _ in 0..depth {
            value = serde_json::json!({ "a": value });
        }
        value
    };
    let with_xr = |spec: serde_json::Value| {
        let mut request = request(
            "deep",
            "resource cm {\n  body = {\n    apiVersion = \"v1\"\n    kind = \"ConfigMap\"\n    spec = req.composite.spec\n  }\n}\n",
        );
        let mut json = convert::request_from_pb(&request);
        let xr = json
            .observed
            .composite
            .as_mut()
            .unwrap()
            .resource
            .as_mut()
            .unwrap();
        xr["spec"] = spec;
        request = convert::request_to_pb(&json).unwrap();
        request
    };
    let response = call(&rt, &server.address, with_xr(nested(40)), WAIT).unwrap();
    let response = convert::response_from_pb(&response);
    let desired = response.desired.unwrap();
    let mut value = &desired.resources["cm"].resource.as_ref().unwrap()["spec"];
    let mut depth = 0;
    while let Some(inner) = value.get("a") {
        value = inner;
        depth += 1;
    }
    assert_eq!(depth, 40);
    // Deeper than 1,000 levels: refused before decoding.
    let e = call(&rt, &server.address, with_xr(nested(1200)), WAIT).unwrap_err();
    assert!(e.to_string().contains("InvalidArgument"), "{e}");
    assert!(e.to_string().contains("deeper than 1000 levels"), "{e}");
    // 990 levels arrive (the evaluator then applies its own limits).
    let response = call(&rt, &server.address, with_xr(nested(990)), WAIT);
    assert!(response.is_ok(), "{response:?}");
}

/// Over 4 MiB is refused; malformed protobuf and HTTP/1 garbage are answered without harm;
/// many idle connections do not delay a request.
#[test]
fn hostile_traffic_is_answered_without_harm() {
    let server = in_process(server::Timeouts::default());
    let rt = runtime();
    let mut big = request("big", "");
    let mut json = convert::request_from_pb(&big);
    json.observed
        .composite
        .as_mut()
        .unwrap()
        .resource
        .as_mut()
        .unwrap()["spec"] = serde_json::json!("x".repeat(5 * 1024 * 1024));
    big = convert::request_to_pb(&json).unwrap();
    let e = call(&rt, &server.address, big, WAIT).unwrap_err();
    assert!(
        e.to_string().contains("OutOfRange") || e.to_string().contains("ResourceExhausted"),
        "{e}"
    );
    // HTTP/1 garbage: an error or a close, and the server goes on.
    let mut http1 = TcpStream::connect(&server.address).unwrap();
    http1.set_read_timeout(Some(WAIT)).unwrap();
    http1
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut sink = Vec::new();
    let _ = http1.read_to_end(&mut sink);
    // Malformed protobuf in a well-formed gRPC frame.
    let garbage = rt.block_on(async {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", server.address))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut grpc = tonic::client::Grpc::new(channel);
        grpc.ready().await.unwrap();
        let path = tonic::codegen::http::uri::PathAndQuery::from_static(
            "/apiextensions.fn.proto.v1.FunctionRunnerService/RunFunction",
        );
        grpc.unary(
            tonic::Request::new(RawBytes(b"\x12\xff\xff\xff\x0f\x0b\x0b".to_vec())),
            path,
            RawCodec,
        )
        .await
    });
    let status = garbage.unwrap_err();
    assert!(
        matches!(
            status.code(),
            tonic::Code::Internal | tonic::Code::InvalidArgument
        ),
        "{status:?}"
    );
    // Idle connections (as many as the descriptor limit comfortably allows).
    let idle: Vec<TcpStream> = (0..idle_connections())
        .map(|_| TcpStream::connect(&server.address).unwrap())
        .collect();
    let answered = call(&rt, &server.address, request("after", CONFIG_MAP), WAIT).unwrap();
    assert_eq!(answered.meta.unwrap().tag, "after");
    drop(idle);
    // The server logged the calls it evaluated and nothing panicked.
    let mut lines = Vec::new();
    while let Ok(line) = server.lines.try_recv() {
        lines.push(line);
    }
    assert!(lines.iter().any(|l| l.contains("\"after\"")), "{lines:?}");
}

/// 2,000 when the soft descriptor limit leaves room (each connection is two descriptors here:
/// ours and the server's), fewer otherwise.
fn idle_connections() -> usize {
    let limit = Command::new("sh")
        .args(["-c", "ulimit -n"])
        .output()
        .ok()
        .and_then(|out| {
            String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse::<usize>()
                .ok()
        })
        .unwrap_or(1024);
    2000.min(limit.saturating_sub(200) / 2)
}

/// Raw bytes as a gRPC message.
#[derive(Clone)]
struct RawBytes(Vec<u8>);

/// Sends [`RawBytes`] as they are; what comes back is not decoded.
#[derive(Default)]
struct RawCodec;

struct RawEncoder;
struct RawDecoder;

impl tonic::codec::Encoder for RawEncoder {
    type Item = RawBytes;
    type Error = tonic::Status;
    fn encode(
        &mut self,
        item: RawBytes,
        dst: &mut tonic::codec::EncodeBuf<'_>,
    ) -> Result<(), tonic::Status> {
        use prost::bytes::BufMut;
        dst.put_slice(&item.0);
        Ok(())
    }
}

impl tonic::codec::Decoder for RawDecoder {
    type Item = ();
    type Error = tonic::Status;
    fn decode(
        &mut self,
        src: &mut tonic::codec::DecodeBuf<'_>,
    ) -> Result<Option<()>, tonic::Status> {
        use prost::bytes::Buf;
        src.advance(src.remaining());
        Ok(Some(()))
    }
}

impl tonic::codec::Codec for RawCodec {
    type Encode = RawBytes;
    type Decode = ();
    type Encoder = RawEncoder;
    type Decoder = RawDecoder;
    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }
    fn decoder(&mut self) -> RawDecoder {
        RawDecoder
    }
}

/// At the descriptor limit the accept loop pauses and says so once, instead of spinning a
/// core in silence; once descriptors are free again, calls are answered.
#[cfg(unix)]
#[test]
fn the_accept_loop_backs_off_at_the_descriptor_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new("sh")
        .current_dir(dir.path())
        .args([
            "-c",
            "ulimit -n 48 && exec \"$0\" function serve --insecure --address 127.0.0.1:0",
            env!("CARGO_BIN_EXE_fnhcl"),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let server = Process {
        child,
        lines: None,
        address: String::new(),
    };
    let (send, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let first = lines.recv_timeout(WAIT).unwrap();
    let address = first
        .strip_prefix("fnhcl function serve: listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    // More connections than descriptors: the kernel queues them, accept fails.
    let crowd: Vec<TcpStream> = (0..80)
        .filter_map(|_| TcpStream::connect(&address).ok())
        .collect();
    let said = lines
        .recv_timeout(WAIT)
        .expect("the accept error is logged");
    assert!(said.contains("cannot accept a connection"), "{said}");
    drop(crowd);
    let rt = runtime();
    let answered = call(&rt, &address, request("after", CONFIG_MAP), WAIT).unwrap();
    assert_eq!(answered.meta.unwrap().tag, "after");
    drop(rt);
    // Logged once for the whole run of errors, not once per retry.
    let mut again = 0;
    while let Ok(line) = lines.try_recv() {
        again += usize::from(line.contains("cannot accept"));
    }
    assert!(again <= 2, "{again} more accept errors logged");
    drop(server);
}
