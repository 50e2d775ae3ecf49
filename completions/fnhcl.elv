
use builtin;
use str;

set edit:completion:arg-completer[fnhcl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'fnhcl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'fnhcl'= {
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Create a composition folder that checks, renders and tests green at once'
            cand package 'Bundle a composition directory as txtar, or write it into (or extract it from) a Composition'
            cand convert 'Convert a Composition''s patch-and-transform steps to function-hcl, and prove it'
            cand check 'Find every mistake function-hcl would reject, without running it, and lint the rest'
            cand eval 'Evaluate an expression the way function-hcl does, with `req` built from your files'
            cand fmt 'Format HCL files canonically (Go''s `hclwrite.Format`, as `fn-hcl-tools fmt`)'
            cand diff 'Compare two render streams document by document, or what a change does to a render'
            cand test 'Run composition tests: render each case natively and check the output'
            cand validate 'Validate resources against CRD and XRD schemas, offline, as `crossplane beta validate`'
            cand render 'Render a composite resource like `crossplane render`, without Docker'
            cand lsp 'A language server over standard input and output, for editors'
            cand composition 'Composition commands, as the Crossplane CLI names them (v2.3 and later)'
            cand operation 'Operation commands, as the Crossplane CLI names them (v2.5 and later)'
            cand function 'Run function-hcl on one RunFunctionRequest, as Crossplane would call it'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;init'= {
            cand --from-xrd 'Scaffold for the XR type of this CompositeResourceDefinition: its group, kind and version, its status fields, and an example XR with its required spec fields filled'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand --force 'Overwrite files that exist (never through a symbolic link)'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;package'= {
            cand --into 'Write the bundle into the function-hcl step of this Composition (its `input.hcl`), editing only that value: comments, key order and every other byte stay as they are'
            cand --extract 'Write the files of the bundle in this Composition''s function-hcl step into `--out`'
            cand --out 'The directory `--extract` writes to (created when missing)'
            cand --step 'The pipeline step to use when the Composition has several function-hcl steps'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand --check 'With `--into`, write nothing: exit 1 when the Composition''s bundle is stale (differs from DIR''s files, as `fnhcl check` reports with I027), 0 when it is up to date'
            cand --force 'With `--extract`, overwrite files whose contents differ from the bundle'
            cand --skip-analysis 'Package even when `fnhcl check` finds errors (syntax and structure) in the files, as `fn-hcl-tools package --skip-analysis` does'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;convert'= {
            cand -o 'Write the new Composition (`composition.yaml`) and each step''s program (`STEP/main.hcl`) into this folder (created when missing)'
            cand --out 'Write the new Composition (`composition.yaml`) and each step''s program (`STEP/main.hcl`) into this folder (created when missing)'
            cand --verify 'Render the original and the converted composition with this XR and compare the XR''s status and every composed resource'
            cand --observed-resources 'With `--verify`: observed composed resources (a YAML file or directory)'
            cand -e 'With `--verify`: resources the requirements loop may return. Repeatable'
            cand --required-resources 'With `--verify`: resources the requirements loop may return. Repeatable'
            cand --context-files 'With `--verify`: context values from files, as `KEY=PATH`'
            cand --context-values 'With `--verify`: context values as `KEY=VALUE`'
            cand --functions 'With `--verify`: the Functions, for steps that are neither P&T nor function-hcl'
            cand --crossplane-version 'With `--verify`: the Crossplane version whose render to follow'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;check'= {
            cand --step 'The pipeline step to check when a Composition has several function-hcl steps'
            cand --fail-level 'The lowest severity that makes the command fail (exit 1)'
            cand --config 'Use this configuration file for every path, instead of the `.fnhcl.toml` found in each path''s folder or above it'
            cand --schemas 'CRD/XRD files or folders (repeatable or comma-separated) to check resource bodies against (rules L613–L615); default: `schemas` in `.fnhcl.toml`, else the nearest `.crd-sources.yaml` or `.crds/` at or above each composition'
            cand --explain 'Explain a rule (by code or name): what it finds, why, a bad and a good example; or any other diagnostic code fnhcl prints (`E402`, `T301`…): its severity and meaning'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand --list-rules 'List every rule: code, name, default level and what it finds'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;eval'= {
            cand --hcl 'A composition directory whose checks must pass and whose user functions `invoke` can call'
            cand --xr 'The composite resource (XR): `req.composite`'
            cand -o 'Observed composed resources (a YAML file or a directory of them): `req.resource` and, for collection members, `req.resources`. Each needs the annotation `crossplane.io/composition-resource-name`'
            cand --observed-resources 'Observed composed resources (a YAML file or a directory of them): `req.resource` and, for collection members, `req.resources`. Each needs the annotation `crossplane.io/composition-resource-name`'
            cand -e 'Required resources (a YAML file or a directory), as `render -e` takes them: the requirements of the `--hcl` program select from them, the program running until they settle. `NAME=PATH` puts the resources at `req.extra_resources.NAME` directly, with or without a program. Repeatable'
            cand --required-resources 'Required resources (a YAML file or a directory), as `render -e` takes them: the requirements of the `--hcl` program select from them, the program running until they settle. `NAME=PATH` puts the resources at `req.extra_resources.NAME` directly, with or without a program. Repeatable'
            cand --extra-resources 'Required resources (a YAML file or a directory), as `render -e` takes them: the requirements of the `--hcl` program select from them, the program running until they settle. `NAME=PATH` puts the resources at `req.extra_resources.NAME` directly, with or without a program. Repeatable'
            cand --context-values 'Context values as `KEY=VALUE` (JSON or YAML values), `;`-separated or repeated: `req.context.KEY`'
            cand --context-files 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;fmt'= {
            cand -r 'Walk directories recursively, the default (`-r=false` or `--recursive=false`: only their own `.hcl` files). Hidden folders are walked too; `.git`, `.hg`, `.svn` and `.jj` are skipped'
            cand --recursive 'Walk directories recursively, the default (`-r=false` or `--recursive=false`: only their own `.hcl` files). Hidden folders are walked too; `.git`, `.hg`, `.svn` and `.jj` are skipped'
            cand --normalize-literals 'Rewrite `key: value` in object literals to `key = value` first, as function-hcl does (`--normalize-literals=false`: plain `hclwrite.Format`)'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -c 'List the files that are not formatted and exit 1 if there are any; write nothing'
            cand --check 'List the files that are not formatted and exit 1 if there are any; write nothing'
            cand --diff 'Print a unified diff of what would change; write nothing'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;diff'= {
            cand --context 'Lines of context around each change'
            cand --ignore-paths 'A field path to leave out of the comparison (repeatable): `metadata.labels`, `metadata.annotations[example.org/key]` (a key in brackets, dots and slashes included), `spec.items[0]`; a name reached on a list applies to each element'
            cand --rev 'Render the arguments after `--` twice, with the composition files as they are in this git revision (read through git; the work tree is not touched) and as they are now, and compare the two'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;test'= {
            cand --filter 'Run only the cases whose name contains this text (a case folder''s path, or `FILE::NAME` of a test in a file)'
            cand --junit 'Also write a JUnit XML report to this file'
            cand --context 'Lines of context around each difference'
            cand --validate 'Validate each case''s XR and composed resources against these CRD/XRD files or folders (repeatable or comma-separated), as `render --validate`: a problem fails the case'
            cand --lcov 'Write the coverage of the compositions the cases rendered to this file, as LCOV (genhtml, Codecov, editors; `fnhcl lsp` shows it), and print a summary per composition'
            cand --coverage-min 'Fail (exit 1) when the coverage of the whole run — blocks rendered, branches taken and user functions called, together — is below this percentage; prints the summary'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand --update 'Write `expected.yaml` of every case whose output differs (and of new cases: an `xr.yaml` in a folder inside a `tests` folder); cases with `expected-error.txt` are left alone'
            cand -w 'Run again on every change below the PATHs (the screen is cleared first on a terminal); Ctrl-C stops'
            cand --watch 'Run again on every change below the PATHs (the screen is cleared first on a terminal); Ctrl-C stops'
            cand --allow-outside-paths 'Let cases name files outside the PATHs (an absolute or `..` path in `args` or `source`, a link leading out). Without it such a case fails, so that a case from an untrusted change cannot print other files into a CI log'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand import 'Make a test case of a function-hcl debug dump or a pipeline-inspector log'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;test;import'= {
            cand --out 'The folder to write the case into, below the composition it tests (created; existing case files are never overwritten)'
            cand --step 'Pipeline inspector log: only the requests of this pipeline step (its name, or its Function''s name when the log has no step names)'
            cand --xr 'Pipeline inspector log: only the requests for this XR (`name` or `namespace/name`)'
            cand --index 'Pipeline inspector log: the Nth request (from 1) of those left by `--step` and `--xr`, instead of the last function-hcl one'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;test;help'= {
            cand import 'Make a test case of a function-hcl debug dump or a pipeline-inspector log'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;test;help;import'= {
        }
        &'fnhcl;test;help;help'= {
        }
        &'fnhcl;validate'= {
            cand --output 'The report: crossplane''s lines, or one JSON or YAML document: the diagnostics document of `--format json` (which prints the same), with the totals in `summary` and each resource as `resources`. (`-o` still works, hidden: elsewhere `-o` names observed resources.)'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand --skip-success-results 'Print nothing for resources that are valid'
            cand --error-on-missing-schemas 'Fail (exit 1) when a resource''s kind has no schema'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;render'= {
            cand -o 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`'
            cand --observed-resources 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`'
            cand -e 'Resources the requirements loop may return (a YAML file or directory). Repeatable'
            cand --required-resources 'Resources the requirements loop may return (a YAML file or directory). Repeatable'
            cand --extra-resources 'Resources the requirements loop may return (a YAML file or directory). Repeatable'
            cand --context-files 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated'
            cand --context-values 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`'
            cand -a 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)'
            cand --function-annotations 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)'
            cand --function-credentials 'Secrets whose `data` become the steps'' `credentials` (a YAML file or directory)'
            cand --xrd 'An XRD whose OpenAPI schema defaults are applied to the XR first'
            cand -s 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind''s schema (a step''s `requiredSchemas`, a response''s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it'
            cand --required-schemas 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind''s schema (a step''s `requiredSchemas`, a response''s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it'
            cand --timeout 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane''s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)'
            cand --hcl 'Use the `.hcl` files of this directory for the function-hcl step instead of the Composition''s inline bundle'
            cand --step 'The function-hcl step `--hcl` replaces, when the Composition has several (only with `--hcl`: every step of the pipeline runs)'
            cand --crossplane-version 'The Crossplane version whose render output to reproduce (default: the newest verified, CLI 2.5 with engine 2.3.4): up to 2.2 the classic `crossplane render` (below 2.0 every composed resource gets a `generateName`); 2.3 and later the engine dialect of `crossplane composition render` (names derived from a deterministic XR UID, `spec.crossplane.resourceRefs`, the `Responsive`/`Synced`/`Ready` conditions, results from the reconciler''s events). In the engine dialect a patch version names the engine release, as the CLI''s own `--crossplane-version` picks the Crossplane image: 2.3.0–2.3.3 (and 2.4.0-rc.0) give that release''s output, where it differs (see docs/render.md); other versions the newest verified engine''s'
            cand --validate 'Validate the XR and every composed resource against these CRD/XRD files or folders (repeatable, or comma-separated; `.crd-sources.yaml` and `.crds/` as in `fnhcl validate`): problems are errors pointing at the HCL `body` that produced the resource, at the attribute itself when its key is written literally. Exit status 1 when any'
            cand --crossplane-image '`crossplane render`''s Crossplane image: accepted and ignored (fnhcl runs no containers; a warning says so)'
            cand --crossplane-binary '`crossplane render`''s local Crossplane binary: accepted and ignored'
            cand --crossplane-docker-network '`crossplane render`''s Docker network: accepted and ignored'
            cand --cache-dir '`crossplane render`''s package cache: accepted and ignored'
            cand --max-concurrency '`crossplane render`''s concurrency for building embedded functions: accepted and ignored'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -r 'Print a `Result` document for every function result'
            cand --include-function-results 'Print a `Result` document for every function result'
            cand -c 'Print the final context as a `Context` document'
            cand --include-context 'Print the final context as a `Context` document'
            cand -x 'Copy the input XR''s `spec` and `metadata` into the output XR'
            cand --include-full-xr 'Copy the input XR''s `spec` and `metadata` into the output XR'
            cand --show-discarded 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection''s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR''s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes'
            cand --explain-missing 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection''s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR''s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes'
            cand --detailed-exit-code 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does), so a wrapper can tell a fatal result from other failures'
            cand -w 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops'
            cand --watch 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;lsp'= {
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;composition'= {
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand render '`fnhcl render` under the name `crossplane composition render` gives it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;composition;render'= {
            cand -o 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`'
            cand --observed-resources 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`'
            cand -e 'Resources the requirements loop may return (a YAML file or directory). Repeatable'
            cand --required-resources 'Resources the requirements loop may return (a YAML file or directory). Repeatable'
            cand --extra-resources 'Resources the requirements loop may return (a YAML file or directory). Repeatable'
            cand --context-files 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated'
            cand --context-values 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`'
            cand -a 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)'
            cand --function-annotations 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)'
            cand --function-credentials 'Secrets whose `data` become the steps'' `credentials` (a YAML file or directory)'
            cand --xrd 'An XRD whose OpenAPI schema defaults are applied to the XR first'
            cand -s 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind''s schema (a step''s `requiredSchemas`, a response''s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it'
            cand --required-schemas 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind''s schema (a step''s `requiredSchemas`, a response''s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it'
            cand --timeout 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane''s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)'
            cand --hcl 'Use the `.hcl` files of this directory for the function-hcl step instead of the Composition''s inline bundle'
            cand --step 'The function-hcl step `--hcl` replaces, when the Composition has several (only with `--hcl`: every step of the pipeline runs)'
            cand --crossplane-version 'The Crossplane version whose render output to reproduce (default: the newest verified, CLI 2.5 with engine 2.3.4): up to 2.2 the classic `crossplane render` (below 2.0 every composed resource gets a `generateName`); 2.3 and later the engine dialect of `crossplane composition render` (names derived from a deterministic XR UID, `spec.crossplane.resourceRefs`, the `Responsive`/`Synced`/`Ready` conditions, results from the reconciler''s events). In the engine dialect a patch version names the engine release, as the CLI''s own `--crossplane-version` picks the Crossplane image: 2.3.0–2.3.3 (and 2.4.0-rc.0) give that release''s output, where it differs (see docs/render.md); other versions the newest verified engine''s'
            cand --validate 'Validate the XR and every composed resource against these CRD/XRD files or folders (repeatable, or comma-separated; `.crd-sources.yaml` and `.crds/` as in `fnhcl validate`): problems are errors pointing at the HCL `body` that produced the resource, at the attribute itself when its key is written literally. Exit status 1 when any'
            cand --crossplane-image '`crossplane render`''s Crossplane image: accepted and ignored (fnhcl runs no containers; a warning says so)'
            cand --crossplane-binary '`crossplane render`''s local Crossplane binary: accepted and ignored'
            cand --crossplane-docker-network '`crossplane render`''s Docker network: accepted and ignored'
            cand --cache-dir '`crossplane render`''s package cache: accepted and ignored'
            cand --max-concurrency '`crossplane render`''s concurrency for building embedded functions: accepted and ignored'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -r 'Print a `Result` document for every function result'
            cand --include-function-results 'Print a `Result` document for every function result'
            cand -c 'Print the final context as a `Context` document'
            cand --include-context 'Print the final context as a `Context` document'
            cand -x 'Copy the input XR''s `spec` and `metadata` into the output XR'
            cand --include-full-xr 'Copy the input XR''s `spec` and `metadata` into the output XR'
            cand --show-discarded 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection''s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR''s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes'
            cand --explain-missing 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection''s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR''s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes'
            cand --detailed-exit-code 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does), so a wrapper can tell a fatal result from other failures'
            cand -w 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops'
            cand --watch 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;composition;help'= {
            cand render '`fnhcl render` under the name `crossplane composition render` gives it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;composition;help;render'= {
        }
        &'fnhcl;composition;help;help'= {
        }
        &'fnhcl;operation'= {
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand render 'Render an Operation like `crossplane operation render`, without Docker'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;operation;render'= {
            cand --context-files 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated'
            cand --context-values 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`'
            cand --function-credentials 'Secrets whose `data` become the steps'' `credentials` (a YAML file or directory)'
            cand -a 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file): `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC'
            cand --function-annotations 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file): `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC'
            cand -e 'Resources the pipeline''s requirements may fetch (a YAML file or directory). Repeatable'
            cand --required-resources 'Resources the pipeline''s requirements may fetch (a YAML file or directory). Repeatable'
            cand --required-schemas 'OpenAPI v3 documents served to steps that ask for schemas (a directory of JSON files, as `kubectl get --raw /openapi/v3/<group-version>` prints them), as `render -s` reads them'
            cand -w 'The watched resource of a WatchOperation (a YAML file holding exactly one resource): every step gets it as the bootstrap requirement `ops.crossplane.io/watched-resource`, and it is added to the required resources'
            cand --watched-resource 'The watched resource of a WatchOperation (a YAML file holding exactly one resource): every step gets it as the bootstrap requirement `ops.crossplane.io/watched-resource`, and it is added to the required resources'
            cand --timeout 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane''s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)'
            cand --crossplane-version '`crossplane operation render`''s Crossplane image version: accepted and ignored (fnhcl renders as engine v2.3.4 does; a warning says so)'
            cand --crossplane-image '`crossplane operation render`''s Crossplane image: accepted and ignored'
            cand --crossplane-binary '`crossplane operation render`''s local Crossplane binary: accepted and ignored'
            cand --crossplane-docker-network '`crossplane operation render`''s Docker network: accepted and ignored'
            cand --cache-dir '`crossplane operation render`''s package cache: accepted and ignored'
            cand --max-concurrency '`crossplane operation render`''s concurrency for building embedded functions: accepted and ignored'
            cand -f '`crossplane operation render`''s project file (its functions are built into containers): accepted and ignored; give FUNCTIONS'
            cand --project-file '`crossplane operation render`''s project file (its functions are built into containers): accepted and ignored; give FUNCTIONS'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -c 'Print the final context as a `Context` document'
            cand --include-context 'Print the final context as a `Context` document'
            cand -o 'Print the input Operation''s `spec` in the output Operation'
            cand --include-full-operation 'Print the input Operation''s `spec` in the output Operation'
            cand -r 'Print a `Result` document for each of the reconciler''s events (the steps'' normal and warning results)'
            cand --include-function-results 'Print a `Result` document for each of the reconciler''s events (the steps'' normal and warning results)'
            cand --detailed-exit-code 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does)'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;operation;help'= {
            cand render 'Render an Operation like `crossplane operation render`, without Docker'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;operation;help;render'= {
        }
        &'fnhcl;operation;help;help'= {
        }
        &'fnhcl;function'= {
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse'
            cand serve 'Serve function-hcl over gRPC: fnhcl as the function itself'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;function;run'= {
            cand --request 'The RunFunctionRequest as protobuf JSON (`-` reads standard input)'
            cand --step 'The pipeline step to use when SOURCE is a Composition with several function-hcl steps'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;function;serve'= {
            cand --address 'The address to listen on, `HOST:PORT` (port 0: a free one, printed at start). Default: `127.0.0.1:9443` with `--insecure` (plaintext answers anyone who can reach it: give `0.0.0.0:9443` to serve other hosts), `0.0.0.0:9443` with mutual TLS'
            cand --tls-certs-dir 'Serve mutual TLS with the certificates in this folder, as function SDKs read them: `tls.crt` and `tls.key` (the server''s), `ca.crt` (the CA that signs clients'' certificates; a client without one is refused). Crossplane mounts them in-cluster'
            cand --log-format 'How each request''s log line is written'
            cand --timeout 'The longest one call may evaluate, whatever deadline its caller sent (`1m`, `30s`): then it ends with `DeadlineExceeded`'
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand --insecure 'Serve plaintext gRPC (what `crossplane render`''s Development runtime dials)'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;function;help'= {
            cand run 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse'
            cand serve 'Serve function-hcl over gRPC: fnhcl as the function itself'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;function;help;run'= {
        }
        &'fnhcl;function;help;serve'= {
        }
        &'fnhcl;function;help;help'= {
        }
        &'fnhcl;completions'= {
            cand --color 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them'
            cand --format 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`'
            cand -q 'Print only errors and the command''s output'
            cand --quiet 'Print only errors and the command''s output'
            cand -v 'Print more about what is being done'
            cand --verbose 'Print more about what is being done'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'fnhcl;help'= {
            cand init 'Create a composition folder that checks, renders and tests green at once'
            cand package 'Bundle a composition directory as txtar, or write it into (or extract it from) a Composition'
            cand convert 'Convert a Composition''s patch-and-transform steps to function-hcl, and prove it'
            cand check 'Find every mistake function-hcl would reject, without running it, and lint the rest'
            cand eval 'Evaluate an expression the way function-hcl does, with `req` built from your files'
            cand fmt 'Format HCL files canonically (Go''s `hclwrite.Format`, as `fn-hcl-tools fmt`)'
            cand diff 'Compare two render streams document by document, or what a change does to a render'
            cand test 'Run composition tests: render each case natively and check the output'
            cand validate 'Validate resources against CRD and XRD schemas, offline, as `crossplane beta validate`'
            cand render 'Render a composite resource like `crossplane render`, without Docker'
            cand lsp 'A language server over standard input and output, for editors'
            cand composition 'Composition commands, as the Crossplane CLI names them (v2.3 and later)'
            cand operation 'Operation commands, as the Crossplane CLI names them (v2.5 and later)'
            cand function 'Run function-hcl on one RunFunctionRequest, as Crossplane would call it'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fnhcl;help;init'= {
        }
        &'fnhcl;help;package'= {
        }
        &'fnhcl;help;convert'= {
        }
        &'fnhcl;help;check'= {
        }
        &'fnhcl;help;eval'= {
        }
        &'fnhcl;help;fmt'= {
        }
        &'fnhcl;help;diff'= {
        }
        &'fnhcl;help;test'= {
            cand import 'Make a test case of a function-hcl debug dump or a pipeline-inspector log'
        }
        &'fnhcl;help;test;import'= {
        }
        &'fnhcl;help;validate'= {
        }
        &'fnhcl;help;render'= {
        }
        &'fnhcl;help;lsp'= {
        }
        &'fnhcl;help;composition'= {
            cand render '`fnhcl render` under the name `crossplane composition render` gives it'
        }
        &'fnhcl;help;composition;render'= {
        }
        &'fnhcl;help;operation'= {
            cand render 'Render an Operation like `crossplane operation render`, without Docker'
        }
        &'fnhcl;help;operation;render'= {
        }
        &'fnhcl;help;function'= {
            cand run 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse'
            cand serve 'Serve function-hcl over gRPC: fnhcl as the function itself'
        }
        &'fnhcl;help;function;run'= {
        }
        &'fnhcl;help;function;serve'= {
        }
        &'fnhcl;help;completions'= {
        }
        &'fnhcl;help;help'= {
        }
    ]
    $completions[$command]
}
