//! Resolving raw arguments and the environment into settings. Pure, so it is unit-tested.

use super::args::ColorChoice;

/// The environment facts colour depends on.
#[derive(Debug, Clone, Copy, Default)]
pub struct ColorEnv {
    /// `NO_COLOR` is set and not empty.
    pub no_color: bool,
    /// `CLICOLOR_FORCE` is set and not `0`.
    pub clicolor_force: bool,
    /// `CLICOLOR=0`.
    pub clicolor_off: bool,
    /// `TERM=dumb`.
    pub term_dumb: bool,
}

impl ColorEnv {
    /// Reads the process environment.
    pub fn from_process() -> ColorEnv {
        let var = |name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
        ColorEnv {
            no_color: var("NO_COLOR").is_some_and(|v| !v.is_empty()),
            clicolor_force: var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0"),
            clicolor_off: var("CLICOLOR").is_some_and(|v| v == "0"),
            term_dumb: var("TERM").is_some_and(|v| v == "dumb"),
        }
    }
}

/// Whether to colour a stream. The flag wins; under `auto`, `NO_COLOR` beats
/// `CLICOLOR_FORCE`, which beats `CLICOLOR=0`, `TERM=dumb` and not being a terminal.
pub fn use_color(choice: ColorChoice, env: ColorEnv, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if env.no_color {
                false
            } else if env.clicolor_force {
                true
            } else {
                is_terminal && !env.clicolor_off && !env.term_dumb
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_beats_environment() {
        let env = ColorEnv {
            no_color: true,
            ..ColorEnv::default()
        };
        assert!(use_color(ColorChoice::Always, env, false));
        let env = ColorEnv {
            clicolor_force: true,
            ..ColorEnv::default()
        };
        assert!(!use_color(ColorChoice::Never, env, true));
    }

    #[test]
    fn auto_follows_the_environment() {
        let plain = ColorEnv::default();
        assert!(use_color(ColorChoice::Auto, plain, true));
        assert!(!use_color(ColorChoice::Auto, plain, false));
        let no_color = ColorEnv {
            no_color: true,
            clicolor_force: true,
            ..plain
        };
        assert!(!use_color(ColorChoice::Auto, no_color, true));
        let forced = ColorEnv {
            clicolor_force: true,
            term_dumb: true,
            ..plain
        };
        assert!(use_color(ColorChoice::Auto, forced, false));
        let off = ColorEnv {
            clicolor_off: true,
            ..plain
        };
        assert!(!use_color(ColorChoice::Auto, off, true));
        let dumb = ColorEnv {
            term_dumb: true,
            ..plain
        };
        assert!(!use_color(ColorChoice::Auto, dumb, true));
    }
}
