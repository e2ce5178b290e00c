//! `taku serve`: bcdice-api v2 over HTTP (the table API comes with the server issue).

use anyhow::{Context, Result};

/// `taku serve` arguments.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free one; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080", env = "TAKU_BIND")]
    bind: String,
}

/// Serves until Ctrl-C (or SIGTERM); requests in flight finish first.
pub fn run(args: &ServeArgs) -> Result<bool> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        println!("taku serving bcdice-api v2 on http://{addr}");
        taku_server::serve(listener, shutdown()).await?;
        eprintln!("taku: stopped");
        Ok(true)
    })
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
