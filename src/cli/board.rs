//! `carrom board`: draws the ICF top view.
#[derive(Debug, clap::Args)]
pub struct Args {}
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not built yet")
}
