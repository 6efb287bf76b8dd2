//! `carrom sim`: plays and renders a match clip with ground truth.
#[derive(Debug, clap::Args)]
pub struct Args {}
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not built yet")
}
