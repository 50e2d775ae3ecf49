//! The size budget of one evaluation: how many bytes of strings templates and function calls
//! may build in total, and the bound on one string ([`MAX_STRING_BYTES`]). The
//! budget bounds what a program keeps, so chains that double a string at each step (locals
//! `a_i = "${a_(i-1)}${a_(i-1)}"`, whose values all stay alive) stop at a fixed amount of
//! memory instead of at the last string under the limit. cty has no budget:
//! docs/compatibility.md.

use std::cell::Cell;

/// The longest string a function call or a template may build: 128 MiB. Far beyond real
/// values (a 100 MB string still works), and it stops chains that grow strings geometrically
/// (`jsonencode(jsonencode(…))` doubles the escapes at each level; a template `"${a}${a}"`
/// applied thirty times makes a gigabyte). cty has no limit: docs/compatibility.md.
pub const MAX_STRING_BYTES: usize = 128 << 20;

/// The message for a string past [`MAX_STRING_BYTES`].
pub fn string_too_long(len: usize) -> String {
    format!(
        "the result would be a string of {len} bytes, more than fnhcl's limit of {MAX_STRING_BYTES} (128 MiB)"
    )
}

/// The bytes of strings one evaluation may build: 128 MiB, fifty times what a large real
/// composition builds, and enough for one 100 MB string.
pub const MAX_BUILT_BYTES: usize = 128 << 20;

thread_local! {
    /// What is left of the running evaluation's budget; `None` outside one (no budget).
    static LEFT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Runs `work` as one evaluation with a fresh budget, then puts back the enclosing one
/// (however `work` ends).
pub fn within<T>(work: impl FnOnce() -> T) -> T {
    struct Restore(Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            LEFT.set(self.0);
        }
    }
    let _restore = Restore(LEFT.replace(Some(MAX_BUILT_BYTES)));
    work()
}

/// Counts `bytes` of built strings against the running evaluation's budget; the error
/// message when they do not fit. Outside an evaluation, nothing is counted.
pub fn charge(bytes: usize) -> Result<(), String> {
    match LEFT.get() {
        None => Ok(()),
        Some(left) if bytes <= left => {
            LEFT.set(Some(left - bytes));
            Ok(())
        }
        Some(_) => Err(format!(
            "this evaluation has built more strings than fnhcl's budget of {MAX_BUILT_BYTES} bytes (128 MiB)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evaluation_has_its_own_budget() {
        assert!(
            charge(usize::MAX).is_ok(),
            "no budget outside an evaluation"
        );
        within(|| {
            assert!(charge(MAX_BUILT_BYTES - 10).is_ok());
            // A nested evaluation starts afresh and gives the outer one back its rest.
            within(|| assert!(charge(MAX_BUILT_BYTES).is_ok()));
            assert!(charge(10).is_ok());
            assert!(charge(1).unwrap_err().contains("fnhcl's budget"));
        });
        assert!(charge(usize::MAX).is_ok());
    }
}
