//! `taku serve`: bcdice-api v2, the table API and live updates over HTTP.

use anyhow::{Context, Result};

/// `taku serve` arguments.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free one; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080", env = "TAKU_BIND")]
    bind: String,
    /// Database: a SQLite file (created on first use) or a postgres:// URL (several
    /// servers may share one; each delivers the others' events to its live sockets).
    #[arg(long, default_value = "taku.db", env = "TAKU_DB")]
    db: String,
    /// Requests a second each client address may make (twice that at once); 0 for no
    /// limit (behind a reverse proxy every client has the proxy's address).
    #[arg(long, default_value_t = taku_server::DEFAULT_RATE_LIMIT, env = "TAKU_RATE_LIMIT")]
    rate_limit: u32,
    /// Connections open at once (lowered to fit under the open-file limit); further ones
    /// are closed as soon as accepted.
    #[arg(long, default_value_t = taku_server::DEFAULT_MAX_CONNECTIONS, env = "TAKU_MAX_CONNECTIONS")]
    max_connections: usize,
    /// Connections open at once from one client address (behind a reverse proxy, raise
    /// it: every client has the proxy's address).
    #[arg(long, default_value_t = taku_server::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, env = "TAKU_MAX_CONNECTIONS_PER_ADDRESS")]
    max_connections_per_address: usize,
    /// A reverse proxy (address block, repeatable) whose X-Forwarded-For names the
    /// client, so rate limits stay per client behind it; others' X-Forwarded-For is
    /// ignored.
    #[arg(
        long = "trusted-proxy",
        value_name = "CIDR",
        env = "TAKU_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<taku_server::limits::Cidr>,
    /// Whether anyone may create tables. Default: yes when bound to a loopback address
    /// without `--trusted-proxy` (only this machine can reach it), no on any other and
    /// behind a proxy (a public server creates tables only for requests with the admin
    /// token, unless this is given).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", env = "TAKU_OPEN_CREATION")]
    open_creation: Option<bool>,
    /// A file holding the admin token (its first line): requests with `Authorization:
    /// Bearer ADMIN_TOKEN` create tables when creation is restricted, past the hourly
    /// quota. `TAKU_ADMIN_TOKEN` gives the token itself (never on the command line,
    /// where other users of the machine can read it).
    #[arg(long, value_name = "FILE")]
    admin_token_file: Option<std::path::PathBuf>,
    /// Tables one client address may create an hour; 0 for no limit.
    #[arg(long, default_value_t = taku_server::DEFAULT_TABLES_PER_HOUR, env = "TAKU_TABLES_PER_HOUR")]
    tables_per_hour: u32,
    /// Members one table may have, its GM included.
    #[arg(long, default_value_t = taku_server::DEFAULT_MAX_MEMBERS, env = "TAKU_MAX_MEMBERS")]
    max_members: usize,
    /// Entries one table's log may hold.
    #[arg(long, default_value_t = taku_server::DEFAULT_MAX_EVENTS, env = "TAKU_MAX_LOG_ENTRIES")]
    max_log_entries: usize,
    /// Bytes one table's log may hold, as stored (a player's own lines: a third of it).
    #[arg(long, default_value_t = taku_server::DEFAULT_MAX_LOG_BYTES, env = "TAKU_MAX_LOG_BYTES")]
    max_log_bytes: u64,
    /// Lines decided (and exports rendered) at once, off the async threads; default one
    /// per core, at least two.
    #[arg(long, env = "TAKU_WORKERS")]
    workers: Option<usize>,
    /// Seconds a table unused stays in memory (it is loaded again when next used).
    #[arg(long, value_name = "SECS", default_value_t = taku_server::DEFAULT_IDLE_EVICTION.as_secs(), env = "TAKU_IDLE_EVICTION")]
    idle_eviction: u64,
    /// Whether each client gets one bcdice-api evaluation at a time by the reference
    /// engine and a share of its time (4 s at once, half a second a second after); past
    /// it, 429. `false` for benchmarks of the engine from one client.
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set, env = "TAKU_REFERENCE_SHARE")]
    reference_share: bool,
    /// A host name this server answers to besides `localhost` and IP addresses, when
    /// bound to loopback without a trusted proxy (repeatable): other `Host` headers are
    /// refused (421), so a DNS-rebinding page cannot use a local server.
    #[arg(long = "allowed-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,
    /// Mebibytes of logs (as stored) the tables held in memory may count, each table
    /// 16 KiB more; past it the least recently used tables leave memory (even watched
    /// ones) and are loaded again when used. Resident memory is about 2–3× this.
    #[arg(long, value_name = "MIB", default_value_t = taku_server::DEFAULT_RESIDENT_LOG_BYTES >> 20, env = "TAKU_MAX_RESIDENT_MIB")]
    max_resident_mib: u64,
    /// Lines (and sheet imports, reveals, undos) one member may send a minute at one
    /// table; past it they are refused (429) until the minute's share refills. 0 for no
    /// limit.
    #[arg(long, default_value_t = taku_server::DEFAULT_LINES_PER_MINUTE, env = "TAKU_LINES_PER_MINUTE")]
    lines_per_minute: u32,
    /// Bytes of lines one member may send a minute at one table; 0 for no limit.
    #[arg(long, default_value_t = taku_server::DEFAULT_LINE_BYTES_PER_MINUTE, env = "TAKU_LINE_BYTES_PER_MINUTE")]
    line_bytes_per_minute: u32,
    /// Request log format on stderr: text, json, or off. `TAKU_LOG` filters
    /// (default `info`; `warn` drops the per-request lines).
    #[arg(long, default_value = "text", value_parser = ["text", "json", "off"])]
    log: String,
}

/// Serves until Ctrl-C (or SIGTERM); requests in flight finish first.
pub fn run(args: &ServeArgs) -> Result<bool> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    init_log(&args.log)?;
    let admin_token = admin_token(args)?;
    // Behind a reverse proxy a loopback bind is reached from everywhere (attack pass 2,
    // A2-19): closed unless opened.
    let open_creation = args
        .open_creation
        .unwrap_or_else(|| default_open_creation(&args.bind, &args.trusted_proxies));
    let mut limits = taku_server::default_limits();
    limits.max_events = args.max_log_entries;
    limits.max_bytes = args.max_log_bytes;
    if let Some(n) = args.workers {
        anyhow::ensure!(n > 0, "--workers must be at least 1");
        limits.workers = n;
    }
    rt.block_on(async {
        let store = crate::table::open_store(&args.db).await?;
        if !open_creation {
            eprintln!(
                "taku: table creation is restricted on {} ({}): {}",
                args.bind,
                if args.trusted_proxies.is_empty() {
                    "not a loopback address"
                } else {
                    "behind a trusted proxy, reached from anywhere"
                },
                if admin_token.is_some() {
                    "only requests with the admin token create tables"
                } else {
                    "nobody can create tables; pass --open-creation, or --admin-token-file FILE"
                }
            );
        }
        let server = taku_server::Server::new(
            store,
            &taku_server::Config {
                rate_limit: args.rate_limit,
                max_connections: args.max_connections,
                max_connections_per_address: args.max_connections_per_address,
                trusted_proxies: args.trusted_proxies.clone(),
                // A local server (A3-1): only its own names; behind a proxy, or on a
                // public address, the names people use are not known here.
                allowed_hosts: default_open_creation(&args.bind, &args.trusted_proxies)
                    .then(|| args.allowed_hosts.clone()),
                reference_share: args.reference_share,
                open_creation,
                admin_token,
                tables_per_hour: args.tables_per_hour,
                max_members: args.max_members,
                idle_eviction: std::time::Duration::from_secs(args.idle_eviction.max(1)),
                resident_log_bytes: args.max_resident_mib.saturating_mul(1 << 20),
                lines_per_minute: args.lines_per_minute,
                line_bytes_per_minute: args.line_bytes_per_minute,
                limits,
                ..taku_server::Config::default()
            },
        );
        let listener = tokio::net::TcpListener::bind(&args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        println!(
            "taku serving on http://{addr} (bcdice-api /v2, table API /api/v1) with tables in {}",
            taku_table::store::postgres::redact(&args.db)
        );
        taku_server::serve(listener, server, shutdown()).await?;
        eprintln!("taku: stopped");
        Ok(true)
    })
}

/// The admin token: `TAKU_ADMIN_TOKEN`, else the first line of `--admin-token-file`.
fn admin_token(args: &ServeArgs) -> Result<Option<String>> {
    let token = match (std::env::var("TAKU_ADMIN_TOKEN"), &args.admin_token_file) {
        (Ok(t), _) => t,
        (Err(_), Some(path)) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the admin token file {}", path.display()))?
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
        (Err(_), None) => return Ok(None),
    };
    let token = token.trim().to_string();
    anyhow::ensure!(
        token.len() >= 16,
        "the admin token must be at least 16 characters (it guards table creation)"
    );
    Ok(Some(token))
}

/// Whether anyone may create tables when `--open-creation` is not given: only on a
/// loopback bind that no trusted proxy forwards to.
fn default_open_creation(bind: &str, trusted_proxies: &[taku_server::limits::Cidr]) -> bool {
    is_loopback(bind) && trusted_proxies.is_empty()
}

/// Whether `bind` is a loopback address (`127.0.0.1:8080`, `[::1]:0`, `localhost:8080`).
fn is_loopback(bind: &str) -> bool {
    match bind.parse::<std::net::SocketAddr>() {
        Ok(addr) => addr.ip().is_loopback(),
        Err(_) => bind
            .rsplit_once(':')
            .is_some_and(|(host, _)| host.eq_ignore_ascii_case("localhost")),
    }
}

/// Request logs and errors to stderr, filtered by `TAKU_LOG`.
fn init_log(format: &str) -> Result<()> {
    use tracing_subscriber::EnvFilter;
    if format == "off" {
        return Ok(());
    }
    let filter = EnvFilter::try_from_env("TAKU_LOG")
        .or_else(|_| EnvFilter::try_new("info"))
        .context("TAKU_LOG is not a valid filter (try info, warn, or taku::http=info)")?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false);
    let installed = if format == "json" {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    installed.map_err(|e| anyhow::anyhow!("cannot install the logger: {e}"))
}

async fn shutdown() {
    let ctrl_c = async {
        // If the handler cannot be installed, only SIGTERM stops the server.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Attack pass 2, A2-19: a loopback bind behind a trusted proxy is reached from
    /// everywhere, so table creation is closed by default there, as on a public bind.
    #[test]
    fn creation_is_open_by_default_only_on_loopback_without_a_proxy() {
        let proxy: Vec<taku_server::limits::Cidr> = vec!["127.0.0.1/32".parse().expect("cidr")];
        assert!(default_open_creation("127.0.0.1:8080", &[]));
        assert!(default_open_creation("localhost:8080", &[]));
        assert!(!default_open_creation("127.0.0.1:8080", &proxy));
        assert!(!default_open_creation("0.0.0.0:8080", &[]));
        assert!(!default_open_creation("0.0.0.0:8080", &proxy));
    }
}
