//! `fnhcl function serve` under load: requests per second and latency percentiles of
//! RunFunction calls from a gRPC client on this machine, on the shared eval case
//! `evaltest-simple` (its `main.hcl` sent as the request's inline bundle, as Crossplane sends
//! a Composition's input).
//!
//! `cargo bench --bench serve` starts the release binary on a free loopback port and, for
//! each concurrency level, calls it for a few seconds over one connection. Under
//! `cargo test --benches` (no `--bench` argument) it makes one call and checks the response.
//! Without `../shared` it is skipped with a notice.

use fnhcl::grpc::{convert, service};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const CASE: &str = "../shared/conformance/eval/evaltest-simple";
const MEASURE: Duration = Duration::from_secs(5);
const CONCURRENCY: [usize; 3] = [1, 4, 16];

/// The server process, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The case's request with its program as the input's bundle.
fn request(case: &Path) -> Result<fnhcl::grpc::pb::RunFunctionRequest, String> {
    let text = std::fs::read_to_string(case.join("request.json")).map_err(|e| e.to_string())?;
    let mut json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let hcl = std::fs::read_to_string(case.join("main.hcl")).map_err(|e| e.to_string())?;
    json["input"] = serde_json::json!({
        "apiVersion": "hcl.fn.crossplane.io/v1beta1",
        "kind": "HclInput",
        "hcl": format!("-- main.hcl --\n{hcl}"),
    });
    let request: fnhcl::eval::proto::RunFunctionRequest =
        serde_json::from_value(json).map_err(|e| e.to_string())?;
    convert::request_to_pb(&request).map_err(|e| e.to_string())
}

/// Starts the server on a free port; returns it and the address it printed.
fn start() -> Result<(Server, String), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .args([
            "function",
            "serve",
            "--insecure",
            "--address",
            "127.0.0.1:0",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let stderr = child.stderr.take().expect("piped");
    let server = Server(child);
    let mut first = String::new();
    BufReader::new(stderr)
        .read_line(&mut first)
        .map_err(|e| e.to_string())?;
    // `fnhcl function serve: listening on ADDR (plaintext gRPC)`; later log lines (one per
    // request) go to a closed pipe, which the server ignores.
    let addr = first
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or_else(|| format!("unexpected first line: {first:?}"))?
        .to_string();
    Ok((server, addr))
}

struct Load {
    requests: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

/// `concurrency` callers on one connection for `MEASURE`.
async fn load(
    channel: tonic::transport::Channel,
    addr: &str,
    request: &fnhcl::grpc::pb::RunFunctionRequest,
    concurrency: usize,
) -> Result<Load, String> {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let channel = channel.clone();
        let addr = addr.to_string();
        let request = request.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while started.elapsed() < MEASURE {
                let t = Instant::now();
                service::call_on(channel.clone(), &addr, request.clone())
                    .await
                    .map_err(|e| e.to_string())?;
                latencies.push(t.elapsed());
            }
            Ok::<_, String>(latencies)
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.map_err(|e| e.to_string())??);
    }
    latencies.sort();
    Ok(Load {
        requests: latencies.len(),
        elapsed: started.elapsed(),
        latencies,
    })
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--test") || !args.iter().any(|a| a == "--bench");
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join(CASE);
    if !case.is_dir() {
        println!("serve: {CASE} not found (../shared is absent): skipped");
        return ExitCode::SUCCESS;
    }
    match run(&case, quick) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("serve: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(case: &Path, quick: bool) -> Result<(), String> {
    let request = request(case)?;
    let (_server, addr) = start()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
            .map_err(|e| e.to_string())?
            .connect_timeout(Duration::from_secs(10))
            .connect()
            .await
            .map_err(|e| e.to_string())?;
        let response = service::call_on(channel.clone(), &addr, request.clone())
            .await
            .map_err(|e| e.to_string())?;
        let resources = response.desired.as_ref().map_or(0, |d| d.resources.len());
        if resources == 0 {
            return Err(format!("no desired resources in {response:?}"));
        }
        if quick {
            println!("serve: one call answered with {resources} desired resources");
            return Ok(());
        }
        for concurrency in CONCURRENCY {
            let load = load(channel.clone(), &addr, &request, concurrency).await?;
            println!(
                "serve: {concurrency:>2} concurrent callers: {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} requests)",
                load.requests as f64 / load.elapsed.as_secs_f64(),
                percentile(&load.latencies, 0.50).as_secs_f64() * 1e3,
                percentile(&load.latencies, 0.99).as_secs_f64() * 1e3,
                load.latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
                load.requests,
            );
        }
        Ok(())
    })
}
