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
    rt.block_on(async {
        let store = crate::table::open_store(&args.db).await?;
        let server = taku_server::Server::new(
            store,
            &taku_server::Config {
                rate_limit: args.rate_limit,
                max_connections: args.max_connections,
                max_connections_per_address: args.max_connections_per_address,
                trusted_proxies: args.trusted_proxies.clone(),
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
