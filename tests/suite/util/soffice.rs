//! LibreOffice (`soffice`) loading a file and saving it again: what it
//! saves is what it understood.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

/// Whether LibreOffice is installed; when it is not, the test that asks
/// says it skips itself (a `SKIPPED:` line).
pub fn soffice_found() -> bool {
    let found = Command::new("soffice")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        // Past the test harness's capture, so that `cargo test` shows it.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: soffice not found (apt-get install libreoffice-calc-nogui)"
        );
    }
    found
}

/// LibreOffice loads each of `files` and saves it as `format` (`xlsx`,
/// `csv`) into `outdir`, with a profile of its own in `profile` (so that
/// runs beside each other do not share one).
pub fn soffice_convert<I, S>(format: &str, outdir: &Path, profile: &Path, files: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            profile.display()
        ))
        .args([
            "--headless",
            "--norestore",
            "--convert-to",
            format,
            "--outdir",
        ])
        .arg(outdir)
        .args(files)
        .output()
        .expect("soffice")
}
