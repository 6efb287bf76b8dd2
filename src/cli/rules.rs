//! `carrom rules`: applies the laws to a stroke log.
#[derive(Debug, clap::Args)]
pub struct Args {}
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not built yet")
}
