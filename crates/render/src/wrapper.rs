//! Debian's `/usr/bin/chromium` launcher script, seen through: when the chosen executable is
//! that shell script, sightline launches the binary it would `exec` instead.
//!
//! The script checks the CPU for SSE3, cleans old crash reports, sources every file in
//! `/etc/chromium.d` (one runs `findmnt` to size `/dev/shm`, another `ls` over the extension
//! folder), then execs `$LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"`. That costs 25–35 ms a
//! launch on this machine. The flags it adds (Debian 12's `/etc/chromium.d`) either
//! are sightline's own already (`--disable-dev-shm-usage`, `--no-default-browser-check`,
//! `--disable-background-networking`), are turned off by sightline's flags
//! (`--media-router=0`: the `MediaRouter` feature is disabled; `--enable-remote-extensions`,
//! `--load-extension=...`, `--show-component-extension-options`: chromiumoxide passes
//! `--disable-extensions`; `--enable-gpu-rasterization`: sightline passes `--disable-gpu`), or
//! are added to sightline's own list (`--disable-pings`, see
//! [`super::browser::CHROME_FLAGS`]). The API keys it exports are for Google services a
//! headless, offline-capable render does not use.
//!
//! `SIGHTLINE_KEEP_CHROME_WRAPPER=1` launches the script as it is (for a wrapper whose
//! `/etc/chromium.d` sets something a page needs).

use std::path::{Path, PathBuf};

/// The environment variable that keeps the wrapper script (any value but empty or `0`).
pub const KEEP_WRAPPER_ENV: &str = "SIGHTLINE_KEEP_CHROME_WRAPPER";

/// A launcher script is at most this large (Debian's is about 5 KB); anything larger is a
/// binary and is not read further.
const MAX_SCRIPT_BYTES: u64 = 64 * 1024;

/// The binary a Debian-style Chromium launcher script execs, from the script's text: the
/// script must be a shell script (`#!` first) that sets `APPNAME=` and `LIBDIR=` and ends in
/// `exec $LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"`, or whose one command runs an absolute path
/// with the script's arguments (`/usr/lib/chromium/chromium-headless-shell "$@"`, Debian's
/// `/usr/bin/chromium-headless-shell`; `exec` or not). `$APPNAME` in `LIBDIR` is expanded.
/// Any other text gives None (the executable is launched as it is).
pub fn wrapped_binary(script: &str) -> Option<PathBuf> {
    if !script.starts_with("#!") {
        return None;
    }
    if let Some(bin) = single_command(script) {
        return Some(bin);
    }
    let value = |name: &str| {
        script.lines().find_map(|l| {
            let v = l.trim().strip_prefix(name)?.strip_prefix('=')?;
            Some(v.trim_matches('"').to_string())
        })
    };
    let app = value("APPNAME")?;
    let lib = value("LIBDIR")?;
    let execs = script.lines().any(|l| {
        let l = l.trim();
        l.starts_with("exec $LIBDIR/$APPNAME ") || l.starts_with("exec \"$LIBDIR/$APPNAME\" ")
    });
    if !execs || app.is_empty() || app.contains(['/', '$', ' ']) {
        return None;
    }
    let lib = lib.replace("$APPNAME", &app).replace("${APPNAME}", &app);
    if !lib.starts_with('/') || lib.contains('$') {
        return None;
    }
    Some(Path::new(&lib).join(app))
}

/// The binary of a script whose only command (past the `#!` line, blank lines and comments) is
/// `[exec] /absolute/path "$@"`.
fn single_command(script: &str) -> Option<PathBuf> {
    let mut commands = script
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let only = commands.next()?;
    if commands.next().is_some() {
        return None;
    }
    let only = only
        .strip_prefix("exec ")
        .map(str::trim_start)
        .unwrap_or(only);
    let (bin, args) = only.split_once(char::is_whitespace)?;
    let bin = bin.trim_matches('"');
    if args.trim() != "\"$@\"" || !bin.starts_with('/') || bin.contains(['$', '`', ';']) {
        return None;
    }
    Some(PathBuf::from(bin))
}

/// Does the environment value ask to keep the wrapper?
pub fn keep_wrapper(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// The executable to launch for `exe`: the binary behind a Debian launcher script when that
/// binary exists and [`KEEP_WRAPPER_ENV`] is not set, else `exe` itself.
pub fn resolve(exe: &Path) -> PathBuf {
    if keep_wrapper(std::env::var_os(KEEP_WRAPPER_ENV).as_deref()) {
        return exe.to_path_buf();
    }
    let small = std::fs::metadata(exe).is_ok_and(|m| m.len() <= MAX_SCRIPT_BYTES);
    let script = small
        .then(|| std::fs::read(exe).ok())
        .flatten()
        .and_then(|b| String::from_utf8(b).ok());
    match script.as_deref().and_then(wrapped_binary) {
        Some(bin) if bin.is_file() => {
            tracing::debug!(
                "{} is a launcher script; launching {} directly ({KEEP_WRAPPER_ENV}=1 keeps it)",
                exe.display(),
                bin.display()
            );
            bin
        }
        _ => exe.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts of Debian 12's /usr/bin/chromium that the detection reads.
    const DEBIAN: &str = r#"#!/bin/sh

# Chromium launcher

APPNAME=chromium

GDB=/usr/bin/gdb
LIBDIR=/usr/lib/$APPNAME
CHROMIUM_FLAGS=""

for file in /etc/chromium.d/*; do
  test $file = /etc/chromium.d/README || expr $file : .*\.dpkg > /dev/null || . $file
done

if [ $want_debug -eq 1 ] ; then
  $GDB "$LIBDIR/$APPNAME" -x $tmpfile
else
  if [ $want_temp_profile -eq 0 ] ; then
    exec $LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"
  else
    $LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"
  fi
fi
"#;

    #[test]
    fn debian_wrapper_is_seen_through() {
        assert_eq!(
            wrapped_binary(DEBIAN),
            Some(PathBuf::from("/usr/lib/chromium/chromium"))
        );
        let braced = DEBIAN.replace("LIBDIR=/usr/lib/$APPNAME", "LIBDIR=\"/opt/${APPNAME}\"");
        assert_eq!(
            wrapped_binary(&braced),
            Some(PathBuf::from("/opt/chromium/chromium"))
        );
    }

    #[test]
    fn a_script_that_only_runs_a_binary_is_seen_through() {
        // Debian 12's /usr/bin/chromium-headless-shell, as installed.
        let shell = "#!/bin/sh -e\n\n/usr/lib/chromium/chromium-headless-shell \"$@\"\n";
        assert_eq!(
            wrapped_binary(shell),
            Some(PathBuf::from("/usr/lib/chromium/chromium-headless-shell"))
        );
        assert_eq!(
            wrapped_binary("#!/bin/sh\n# launcher\nexec \"/opt/chrome/headless_shell\" \"$@\"\n"),
            Some(PathBuf::from("/opt/chrome/headless_shell"))
        );
        // Something else before it, other arguments, a relative path: launched as it is.
        let before = "#!/bin/sh\nexport X=1\n/usr/lib/chromium/chromium-headless-shell \"$@\"\n";
        assert_eq!(wrapped_binary(before), None);
        assert_eq!(
            wrapped_binary("#!/bin/sh\n/usr/lib/chromium/chromium-headless-shell --x \"$@\"\n"),
            None
        );
        assert_eq!(
            wrapped_binary("#!/bin/sh\nchromium-headless-shell \"$@\"\n"),
            None
        );
        assert_eq!(wrapped_binary("#!/bin/sh\n$DIR/shell \"$@\"\n"), None);
    }

    #[test]
    fn other_executables_are_launched_as_they_are() {
        // An ELF binary, a script that execs something else, a script without the names.
        assert_eq!(wrapped_binary("\x7fELF\x02\x01\x01"), None);
        assert_eq!(
            wrapped_binary(&DEBIAN.replace("exec $LIBDIR/$APPNAME", "exec /opt/other")),
            None
        );
        assert_eq!(
            wrapped_binary(&DEBIAN.replace("APPNAME=chromium", "")),
            None
        );
        assert_eq!(
            wrapped_binary(&DEBIAN.replace("LIBDIR=/usr/lib/$APPNAME", "LIBDIR=$HOME/x")),
            None
        );
        assert_eq!(wrapped_binary("#!/bin/sh\nexec chromium \"$@\"\n"), None);
    }

    #[test]
    fn the_escape_hatch_reads_its_value() {
        use std::ffi::OsStr;
        assert!(!keep_wrapper(None));
        assert!(!keep_wrapper(Some(OsStr::new(""))));
        assert!(!keep_wrapper(Some(OsStr::new("0"))));
        assert!(keep_wrapper(Some(OsStr::new("1"))));
    }

    #[test]
    fn the_installed_wrapper_if_any() {
        // On Debian the real script resolves to its binary; elsewhere nothing changes.
        let p = Path::new("/usr/bin/chromium");
        if let Ok(text) = std::fs::read_to_string(p) {
            if let Some(bin) = wrapped_binary(&text) {
                assert!(bin.starts_with("/usr/lib"), "{}", bin.display());
            }
        }
        assert_eq!(resolve(Path::new("/bin/sh")), PathBuf::from("/bin/sh"));
    }
}
