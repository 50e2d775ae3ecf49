//! The editor analysis called as a library: byte offsets in, plain data out, no protocol and no
//! process (the language server's own sessions are in `tests/lsp.rs`).

use fnhcl::ide::types::{ActionKind, CompletionKind, HighlightKind, SymbolKind};
use fnhcl::ide::workspace::Workspace;
use fnhcl::ide::{At, actions, complete, hover, navigate, symbols};
use std::path::{Path, PathBuf};

const MAIN: &str = r#"# Shared names.
# Two comment lines fold.
locals {
  region = "eu-west-1"
  unused = 1
}

function label {
  arg name {
    description = "the base name"
  }
  body = "${name}-x"
}

resource bucket {
  condition = regoin != ""
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      label  = invoke("label", { name = region })
      region = upper(region)
    }
  }
}
"#;

/// A folder holding `main.hcl` and a workspace over it (the file open as written).
fn setup() -> (tempfile::TempDir, PathBuf, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("main.hcl");
    std::fs::write(&path, MAIN).unwrap();
    let mut ws = Workspace::default();
    ws.documents.insert(path.clone(), MAIN.to_string());
    (dir, path, ws)
}

/// The byte offset of the `n`th (0-based) occurrence of `needle`.
fn nth(needle: &str, n: usize) -> usize {
    MAIN.match_indices(needle).nth(n).unwrap().0
}

fn at<'a>(ws: &'a Workspace, path: &Path, offset: usize) -> At<'a> {
    At::new(ws, path, offset).expect("the file is in a composition")
}

#[test]
fn hover_on_a_local_shows_its_definition_and_uses_over_its_name() {
    let (_dir, path, ws) = setup();
    let offset = nth("region", 3) + 2; // `upper(region)`
    let info = hover::hover(&at(&ws, &path, offset)).unwrap();
    assert_eq!(
        info.range,
        nth("region", 3)..nth("region", 3) + "region".len()
    );
    assert!(
        info.markdown.contains("region = \"eu-west-1\""),
        "{}",
        info.markdown
    );
    assert!(info.markdown.contains("2 references"), "{}", info.markdown);
}

#[test]
fn definition_references_and_highlights_are_byte_ranges() {
    let (_dir, path, ws) = setup();
    let here = at(&ws, &path, nth("region", 1) + 1);
    let places = navigate::places(&here).unwrap();
    let definition = places.definition.unwrap();
    assert_eq!(definition.path, path);
    assert_eq!(definition.range, nth("region", 0)..nth("region", 0) + 6);
    let uses: Vec<usize> = places.uses.iter().map(|u| u.range.start).collect();
    // Occurrence 2 is the object key `region`, not the local.
    assert_eq!(uses, vec![nth("region", 1), nth("region", 3)]);
    let highlights = navigate::highlights(&here).unwrap();
    assert_eq!(
        highlights[0],
        (definition.range.clone(), HighlightKind::Write)
    );
    assert!(
        highlights[1..]
            .iter()
            .all(|(_, k)| *k == HighlightKind::Read)
    );
}

#[test]
fn rename_edits_every_place_of_the_file_once() {
    let (_dir, path, ws) = setup();
    let here = at(&ws, &path, nth("region", 0));
    assert_eq!(
        navigate::prepare_rename(&here),
        Some((nth("region", 0)..nth("region", 0) + 6, "region".to_string()))
    );
    let change = navigate::rename(&here, "zone").unwrap().unwrap();
    assert_eq!(change.len(), 1);
    let (file, edits) = &change[0];
    assert_eq!(file, &path);
    let mut renamed = MAIN.to_string();
    for edit in edits.iter().rev() {
        assert_eq!(edit.new_text, "zone");
        renamed.replace_range(edit.range.clone(), &edit.new_text);
    }
    assert_eq!(renamed.matches("zone").count(), 3);
    // The object key `region` in the body is not the local.
    assert_eq!(renamed.matches("region").count(), 1);
    assert!(navigate::rename(&here, "not a name").unwrap().is_err());
}

#[test]
fn completion_in_an_expression_offers_names_in_scope_and_builtins() {
    let (_dir, path, ws) = setup();
    let offset = nth("upper(", 0);
    let items = complete::complete(&at(&ws, &path, offset)).unwrap();
    let region = items.iter().find(|i| i.label == "region").unwrap();
    assert_eq!(region.kind, CompletionKind::Variable);
    let upper = items.iter().find(|i| i.label == "upper").unwrap();
    assert_eq!(upper.kind, CompletionKind::Function);
    assert!(upper.snippet, "built-ins are inserted as snippets");
    assert!(
        items
            .iter()
            .any(|i| i.label.starts_with("invoke(\"label\""))
    );
}

#[test]
fn signature_help_knows_the_argument_being_written() {
    let (_dir, path, ws) = setup();
    let offset = nth("upper(", 0) + "upper(".len();
    let help = hover::signature_help(&at(&ws, &path, offset)).unwrap();
    assert_eq!(help.label, "upper(str string)");
    assert_eq!(help.parameters, vec!["str string".to_string()]);
    assert_eq!(help.active, 0);
}

#[test]
fn symbols_folds_and_tokens_of_a_file() {
    let (_dir, path, ws) = setup();
    let here = at(&ws, &path, 0);
    let outline: Vec<(String, SymbolKind)> = symbols::symbols(&here)
        .unwrap()
        .into_iter()
        .map(|s| (s.name, s.kind))
        .collect();
    assert_eq!(
        outline,
        vec![
            ("region".to_string(), SymbolKind::Variable),
            ("unused".to_string(), SymbolKind::Variable),
            ("function label".to_string(), SymbolKind::Function),
            ("resource bucket".to_string(), SymbolKind::Object),
        ]
    );
    let folds = symbols::folding(&here);
    let comments: Vec<(u32, u32)> = folds
        .iter()
        .filter(|f| f.comment)
        .map(|f| (f.start_line, f.end_line))
        .collect();
    assert_eq!(comments, vec![(0, 1)]);
    // `locals {` on line 3 folds to the line before its `}`.
    assert!(
        folds
            .iter()
            .any(|f| (f.start_line, f.end_line) == (2, 4) && !f.comment)
    );
    let tokens = symbols::semantic_tokens(&here);
    let locals = tokens.iter().find(|t| t.start == nth("locals", 0)).unwrap();
    assert_eq!(locals.end - locals.start, "locals".len());
    assert_eq!(symbols::TOKEN_TYPES[locals.kind as usize], "keyword");
}

#[test]
fn code_actions_fix_findings_with_byte_range_edits() {
    let (_dir, path, ws) = setup();
    let typo = nth("regoin", 0);
    let here = at(&ws, &path, typo);
    let fixes = actions::code_actions(&here, typo, typo, None);
    let change = fixes
        .iter()
        .find(|a| a.title == "Change to `region`")
        .unwrap();
    assert_eq!(change.kind, ActionKind::QuickFix);
    assert_eq!(change.edits[0].range, typo..typo + "regoin".len());
    assert!(change.fixes.is_some(), "a quick fix names its finding");
    let unused = nth("unused", 0);
    let removal = actions::code_actions(&here, unused, unused, Some(&["quickfix".to_string()]));
    let remove = removal
        .iter()
        .find(|a| a.title == "Remove unused local `unused`")
        .unwrap();
    // The whole line, its newline included.
    assert_eq!(&MAIN[remove.edits[0].range.clone()], "  unused = 1\n");
    // Only quick fixes when only they are asked for.
    assert!(removal.iter().all(|a| a.kind == ActionKind::QuickFix));
}

#[test]
fn formatting_is_one_edit_of_the_whole_text_or_none() {
    let (_dir, path, mut ws) = setup();
    assert_eq!(actions::format(&ws, &path), Some(Vec::new()));
    let messy = "locals {\na=1\n}\n";
    ws.documents.insert(path.clone(), messy.to_string());
    let edits = actions::format(&ws, &path).unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].range, 0..messy.len());
    assert_eq!(edits[0].new_text, "locals {\n  a = 1\n}\n");
}

/// The live-value titles of `main.hcl`'s blocks in `root` with `config` as `.fnhcl.toml`,
/// computed on a thread: a read that blocks fails the test after 30 s instead of hanging it.
fn live_titles(root: &Path, config: &str) -> Vec<String> {
    std::fs::write(root.join(".fnhcl.toml"), config).unwrap();
    let path = root.join("main.hcl");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut ws = Workspace::default();
        let text = std::fs::read_to_string(&path).unwrap();
        ws.documents.insert(path.clone(), text);
        let notes = fnhcl::ide::live::block_notes(&at(&ws, &path, 0));
        let _ = tx.send(notes.into_iter().map(|n| n.title).collect());
    });
    rx.recv_timeout(std::time::Duration::from_secs(30))
        .unwrap_or_else(|_| panic!("live values for {config:?} did not come within 30 s"))
}

/// Example files are repository content the server reads on its own: a link to a device, a
/// FIFO, a file outside the workspace (through a link or `..`) or one past the size cap is
/// refused with the reason, never read.
#[cfg(unix)]
#[test]
fn example_files_must_be_regular_files_inside_the_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("ws");
    std::fs::create_dir(&root).unwrap();
    let xr = "apiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: shop\n";
    std::fs::write(
        root.join("main.hcl"),
        "resource bucket {\n  body = {\n    apiVersion = \"v1\"\n    kind = \"ConfigMap\"\n    metadata = { name = req.composite.metadata.name }\n  }\n}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("outside.yaml"), xr).unwrap();
    std::fs::write(root.join("good.yaml"), xr).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("zero.yaml")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside.yaml"), root.join("link.yaml")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(root.join("fifo.yaml"))
        .status()
        .unwrap();
    assert!(fifo.success());
    std::fs::File::create(root.join("big.yaml"))
        .unwrap()
        .set_len(fnhcl::ide::example::MAX_EXAMPLE_FILE + 1)
        .unwrap();
    std::fs::create_dir(root.join("observed")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("observed/a.yaml")).unwrap();
    for (config, reason) in [
        ("xr = \"/dev/stdin\"", "`/dev/stdin` is not a regular file"),
        ("xr = \"zero.yaml\"", "`zero.yaml` is not a regular file"),
        ("xr = \"fifo.yaml\"", "`fifo.yaml` is not a regular file"),
        ("xr = \"link.yaml\"", "`link.yaml` is outside the workspace"),
        (
            "xr = \"../outside.yaml\"",
            "outside.yaml` is outside the workspace",
        ),
        ("xr = \"big.yaml\"", "`big.yaml` is larger than 16 MiB"),
        (
            "xr = \"good.yaml\"\nobserved = \"observed\"",
            "`observed/a.yaml` is not a regular file",
        ),
    ] {
        let titles = live_titles(&root, &format!("[example]\n{config}\n"));
        assert_eq!(titles.len(), 1, "{config}: {titles:?}");
        assert!(
            titles[0].starts_with("no live values: ") && titles[0].contains(reason),
            "{config}: {titles:?}"
        );
    }
    let titles = live_titles(&root, "[example]\nxr = \"good.yaml\"\n");
    assert!(!titles[0].starts_with("no live values"), "{titles:?}");
}

/// A composition for rename's refusals: top-level locals, a user function with two arguments
/// and a second function, two resources with their own locals, a collection with a template
/// local.
const RENAME: &str = r#"locals {
  region = "eu-west-1"
  zone   = "a"
}

function label {
  arg name {}
  arg suffix {}
  locals {
    joined = "${name}-${suffix}"
  }
  body = joined
}

function other_label {
  arg name {}
  body = name
}

resource bucket {
  locals {
    size = 1
  }
  body = {
    data = { region = region, size = size, zone = zone }
  }
}

resource queue {
  locals {
    depth = 2
  }
  body = { data = { n = depth, label = invoke("label", { name = "q", suffix = "x" }) } }
}

resources subnets {
  for_each = ["a"]
  template {
    locals {
      cidr = "10.0.0.0/24"
    }
    body = { data = { cidr = cidr, r = region } }
  }
}
"#;

/// Renames the `n`th (0-based) `needle` of [`RENAME`] to `new`: `Ok` with the edits' count, or
/// the reason it is refused.
fn rename_in_program(needle: &str, n: usize, new: &str) -> Result<usize, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("main.hcl");
    std::fs::write(&path, RENAME).unwrap();
    let mut ws = Workspace::default();
    ws.documents.insert(path.clone(), RENAME.to_string());
    let offset = RENAME.match_indices(needle).nth(n).unwrap().0;
    navigate::rename(&at(&ws, &path, offset), new)
        .expect("a renamable name at the cursor")
        .map(|change| change.iter().map(|(_, edits)| edits.len()).sum())
}

/// Issue 32 §7: a new name that another local or argument visible where the name is defined
/// or used already has is refused with the reason, as are keywords and non-identifiers.
#[test]
fn rename_refuses_names_that_collide_in_scope() {
    let refused = |needle: &str, n: usize, new: &str, why: &str| {
        let reason = rename_in_program(needle, n, new).unwrap_err();
        assert!(reason.contains(why), "{needle} → {new}: {reason}");
    };
    // Two locals of one scope.
    refused(
        "region",
        0,
        "zone",
        "already a variable where `region` is defined",
    );
    // A resource's local named like a top-level local it can see.
    refused(
        "size",
        0,
        "region",
        "already a variable where `size` is defined",
    );
    // A top-level local named like a block's local: the block would shadow it.
    refused("region", 0, "size", "a block inside defines `size`");
    refused("region", 0, "cidr", "a block inside defines `cidr`");
    // Two arguments of one function.
    refused(
        "name",
        0,
        "suffix",
        "already a variable where `name` is defined",
    );
    // An argument and a local of one function.
    refused("name", 0, "joined", "defines `joined`");
    refused(
        "joined",
        0,
        "suffix",
        "already a variable where `joined` is defined",
    );
    // Keywords, literals, function-hcl's variables, non-identifiers.
    refused("zone", 0, "for", "keyword");
    refused("zone", 0, "in", "keyword");
    refused("zone", 0, "null", "HCL literal");
    refused("zone", 0, "each", "function-hcl variable");
    refused("zone", 0, "2zone", "not a valid name");
    refused("zone", 0, "a.b", "not a valid name");
    // A user function, a resource, a collection named like another of its kind.
    refused(
        "label",
        0,
        "other_label",
        "a user function `other_label` exists already",
    );
    refused("bucket", 0, "queue", "a resource `queue` exists already");
    // Names free where they are used are renamed: a sibling block's local, an argument of
    // another function, a resource named like a collection (function-hcl keeps them apart).
    assert_eq!(rename_in_program("size", 0, "depth"), Ok(2));
    assert_eq!(rename_in_program("name", 0, "zone_name"), Ok(2));
    assert_eq!(rename_in_program("label", 0, "labels"), Ok(2));
    assert_eq!(rename_in_program("bucket", 0, "subnets"), Ok(1));
    assert_eq!(rename_in_program("zone", 0, "zone"), Ok(2));
}
