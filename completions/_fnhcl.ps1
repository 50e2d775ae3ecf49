
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'fnhcl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'fnhcl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'fnhcl' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a composition folder that checks, renders and tests green at once')
            [CompletionResult]::new('package', 'package', [CompletionResultType]::ParameterValue, 'Bundle a composition directory as txtar, or write it into (or extract it from) a Composition')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert a Composition''s patch-and-transform steps to function-hcl, and prove it')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Find every mistake function-hcl would reject, without running it, and lint the rest')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Evaluate an expression the way function-hcl does, with `req` built from your files')
            [CompletionResult]::new('fmt', 'fmt', [CompletionResultType]::ParameterValue, 'Format HCL files canonically (Go''s `hclwrite.Format`, as `fn-hcl-tools fmt`)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two render streams document by document, or what a change does to a render')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run composition tests: render each case natively and check the output')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Validate resources against CRD and XRD schemas, offline, as `crossplane beta validate`')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render a composite resource like `crossplane render`, without Docker')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'A language server over standard input and output, for editors')
            [CompletionResult]::new('composition', 'composition', [CompletionResultType]::ParameterValue, 'Composition commands, as the Crossplane CLI names them (v2.3 and later)')
            [CompletionResult]::new('operation', 'operation', [CompletionResultType]::ParameterValue, 'Operation commands, as the Crossplane CLI names them (v2.5 and later)')
            [CompletionResult]::new('function', 'function', [CompletionResultType]::ParameterValue, 'Run function-hcl on one RunFunctionRequest, as Crossplane would call it')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;init' {
            [CompletionResult]::new('--from-xrd', '--from-xrd', [CompletionResultType]::ParameterName, 'Scaffold for the XR type of this CompositeResourceDefinition: its group, kind and version, its status fields, and an example XR with its required spec fields filled')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite files that exist (never through a symbolic link)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;package' {
            [CompletionResult]::new('--into', '--into', [CompletionResultType]::ParameterName, 'Write the bundle into the function-hcl step of this Composition (its `input.hcl`), editing only that value: comments, key order and every other byte stay as they are')
            [CompletionResult]::new('--extract', '--extract', [CompletionResultType]::ParameterName, 'Write the files of the bundle in this Composition''s function-hcl step into `--out`')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'The directory `--extract` writes to (created when missing)')
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'The pipeline step to use when the Composition has several function-hcl steps')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'With `--into`, write nothing: exit 1 when the Composition''s bundle is stale (differs from DIR''s files, as `fnhcl check` reports with I027), 0 when it is up to date')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With `--extract`, overwrite files whose contents differ from the bundle')
            [CompletionResult]::new('--skip-analysis', '--skip-analysis', [CompletionResultType]::ParameterName, 'Package even when `fnhcl check` finds errors (syntax and structure) in the files, as `fn-hcl-tools package --skip-analysis` does')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;convert' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the new Composition (`composition.yaml`) and each step''s program (`STEP/main.hcl`) into this folder (created when missing)')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write the new Composition (`composition.yaml`) and each step''s program (`STEP/main.hcl`) into this folder (created when missing)')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Render the original and the converted composition with this XR and compare the XR''s status and every composed resource')
            [CompletionResult]::new('--observed-resources', '--observed-resources', [CompletionResultType]::ParameterName, 'With `--verify`: observed composed resources (a YAML file or directory)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'With `--verify`: resources the requirements loop may return. Repeatable')
            [CompletionResult]::new('--required-resources', '--required-resources', [CompletionResultType]::ParameterName, 'With `--verify`: resources the requirements loop may return. Repeatable')
            [CompletionResult]::new('--context-files', '--context-files', [CompletionResultType]::ParameterName, 'With `--verify`: context values from files, as `KEY=PATH`')
            [CompletionResult]::new('--context-values', '--context-values', [CompletionResultType]::ParameterName, 'With `--verify`: context values as `KEY=VALUE`')
            [CompletionResult]::new('--functions', '--functions', [CompletionResultType]::ParameterName, 'With `--verify`: the Functions, for steps that are neither P&T nor function-hcl')
            [CompletionResult]::new('--crossplane-version', '--crossplane-version', [CompletionResultType]::ParameterName, 'With `--verify`: the Crossplane version whose render to follow')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;check' {
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'The pipeline step to check when a Composition has several function-hcl steps')
            [CompletionResult]::new('--fail-level', '--fail-level', [CompletionResultType]::ParameterName, 'The lowest severity that makes the command fail (exit 1)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this configuration file for every path, instead of the `.fnhcl.toml` found in each path''s folder or above it')
            [CompletionResult]::new('--schemas', '--schemas', [CompletionResultType]::ParameterName, 'CRD/XRD files or folders (repeatable or comma-separated) to check resource bodies against (rules L613–L615); default: `schemas` in `.fnhcl.toml`, else the nearest `.crd-sources.yaml` or `.crds/` at or above each composition')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Explain a rule (by code or name): what it finds, why, a bad and a good example; or any other diagnostic code fnhcl prints (`E402`, `T301`…): its severity and meaning')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('--list-rules', '--list-rules', [CompletionResultType]::ParameterName, 'List every rule: code, name, default level and what it finds')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;eval' {
            [CompletionResult]::new('--hcl', '--hcl', [CompletionResultType]::ParameterName, 'A composition directory whose checks must pass and whose user functions `invoke` can call')
            [CompletionResult]::new('--xr', '--xr', [CompletionResultType]::ParameterName, 'The composite resource (XR): `req.composite`')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Observed composed resources (a YAML file or a directory of them): `req.resource` and, for collection members, `req.resources`. Each needs the annotation `crossplane.io/composition-resource-name`')
            [CompletionResult]::new('--observed-resources', '--observed-resources', [CompletionResultType]::ParameterName, 'Observed composed resources (a YAML file or a directory of them): `req.resource` and, for collection members, `req.resources`. Each needs the annotation `crossplane.io/composition-resource-name`')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Required resources (a YAML file or a directory), as `render -e` takes them: the requirements of the `--hcl` program select from them, the program running until they settle. `NAME=PATH` puts the resources at `req.extra_resources.NAME` directly, with or without a program. Repeatable')
            [CompletionResult]::new('--required-resources', '--required-resources', [CompletionResultType]::ParameterName, 'Required resources (a YAML file or a directory), as `render -e` takes them: the requirements of the `--hcl` program select from them, the program running until they settle. `NAME=PATH` puts the resources at `req.extra_resources.NAME` directly, with or without a program. Repeatable')
            [CompletionResult]::new('--extra-resources', '--extra-resources', [CompletionResultType]::ParameterName, 'Required resources (a YAML file or a directory), as `render -e` takes them: the requirements of the `--hcl` program select from them, the program running until they settle. `NAME=PATH` puts the resources at `req.extra_resources.NAME` directly, with or without a program. Repeatable')
            [CompletionResult]::new('--context-values', '--context-values', [CompletionResultType]::ParameterName, 'Context values as `KEY=VALUE` (JSON or YAML values), `;`-separated or repeated: `req.context.KEY`')
            [CompletionResult]::new('--context-files', '--context-files', [CompletionResultType]::ParameterName, 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;fmt' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Walk directories recursively, the default (`-r=false` or `--recursive=false`: only their own `.hcl` files). Hidden folders are walked too; `.git`, `.hg`, `.svn` and `.jj` are skipped')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Walk directories recursively, the default (`-r=false` or `--recursive=false`: only their own `.hcl` files). Hidden folders are walked too; `.git`, `.hg`, `.svn` and `.jj` are skipped')
            [CompletionResult]::new('--normalize-literals', '--normalize-literals', [CompletionResultType]::ParameterName, 'Rewrite `key: value` in object literals to `key = value` first, as function-hcl does (`--normalize-literals=false`: plain `hclwrite.Format`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'List the files that are not formatted and exit 1 if there are any; write nothing')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'List the files that are not formatted and exit 1 if there are any; write nothing')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Print a unified diff of what would change; write nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;diff' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context around each change')
            [CompletionResult]::new('--ignore-paths', '--ignore-paths', [CompletionResultType]::ParameterName, 'A field path to leave out of the comparison (repeatable): `metadata.labels`, `metadata.annotations[example.org/key]` (a key in brackets, dots and slashes included), `spec.items[0]`; a name reached on a list applies to each element')
            [CompletionResult]::new('--rev', '--rev', [CompletionResultType]::ParameterName, 'Render the arguments after `--` twice, with the composition files as they are in this git revision (read through git; the work tree is not touched) and as they are now, and compare the two')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;test' {
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Run only the cases whose name contains this text (a case folder''s path, or `FILE::NAME` of a test in a file)')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write a JUnit XML report to this file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context around each difference')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Validate each case''s XR and composed resources against these CRD/XRD files or folders (repeatable or comma-separated), as `render --validate`: a problem fails the case')
            [CompletionResult]::new('--lcov', '--lcov', [CompletionResultType]::ParameterName, 'Write the coverage of the compositions the cases rendered to this file, as LCOV (genhtml, Codecov, editors; `fnhcl lsp` shows it), and print a summary per composition')
            [CompletionResult]::new('--coverage-min', '--coverage-min', [CompletionResultType]::ParameterName, 'Fail (exit 1) when the coverage of the whole run — blocks rendered, branches taken and user functions called, together — is below this percentage; prints the summary')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('--update', '--update', [CompletionResultType]::ParameterName, 'Write `expected.yaml` of every case whose output differs (and of new cases: an `xr.yaml` in a folder inside a `tests` folder); cases with `expected-error.txt` are left alone')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Run again on every change below the PATHs (the screen is cleared first on a terminal); Ctrl-C stops')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Run again on every change below the PATHs (the screen is cleared first on a terminal); Ctrl-C stops')
            [CompletionResult]::new('--allow-outside-paths', '--allow-outside-paths', [CompletionResultType]::ParameterName, 'Let cases name files outside the PATHs (an absolute or `..` path in `args` or `source`, a link leading out). Without it such a case fails, so that a case from an untrusted change cannot print other files into a CI log')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Make a test case of a function-hcl debug dump or a pipeline-inspector log')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;test;import' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'The folder to write the case into, below the composition it tests (created; existing case files are never overwritten)')
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'Pipeline inspector log: only the requests of this pipeline step (its name, or its Function''s name when the log has no step names)')
            [CompletionResult]::new('--xr', '--xr', [CompletionResultType]::ParameterName, 'Pipeline inspector log: only the requests for this XR (`name` or `namespace/name`)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Pipeline inspector log: the Nth request (from 1) of those left by `--step` and `--xr`, instead of the last function-hcl one')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;test;help' {
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Make a test case of a function-hcl debug dump or a pipeline-inspector log')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;test;help;import' {
            break
        }
        'fnhcl;test;help;help' {
            break
        }
        'fnhcl;validate' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The report: crossplane''s lines, or one JSON or YAML document: the diagnostics document of `--format json` (which prints the same), with the totals in `summary` and each resource as `resources`. (`-o` still works, hidden: elsewhere `-o` names observed resources.)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('--skip-success-results', '--skip-success-results', [CompletionResultType]::ParameterName, 'Print nothing for resources that are valid')
            [CompletionResult]::new('--error-on-missing-schemas', '--error-on-missing-schemas', [CompletionResultType]::ParameterName, 'Fail (exit 1) when a resource''s kind has no schema')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;render' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`')
            [CompletionResult]::new('--observed-resources', '--observed-resources', [CompletionResultType]::ParameterName, 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Resources the requirements loop may return (a YAML file or directory). Repeatable')
            [CompletionResult]::new('--required-resources', '--required-resources', [CompletionResultType]::ParameterName, 'Resources the requirements loop may return (a YAML file or directory). Repeatable')
            [CompletionResult]::new('--extra-resources', '--extra-resources', [CompletionResultType]::ParameterName, 'Resources the requirements loop may return (a YAML file or directory). Repeatable')
            [CompletionResult]::new('--context-files', '--context-files', [CompletionResultType]::ParameterName, 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated')
            [CompletionResult]::new('--context-values', '--context-values', [CompletionResultType]::ParameterName, 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)')
            [CompletionResult]::new('--function-annotations', '--function-annotations', [CompletionResultType]::ParameterName, 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)')
            [CompletionResult]::new('--function-credentials', '--function-credentials', [CompletionResultType]::ParameterName, 'Secrets whose `data` become the steps'' `credentials` (a YAML file or directory)')
            [CompletionResult]::new('--xrd', '--xrd', [CompletionResultType]::ParameterName, 'An XRD whose OpenAPI schema defaults are applied to the XR first')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind''s schema (a step''s `requiredSchemas`, a response''s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it')
            [CompletionResult]::new('--required-schemas', '--required-schemas', [CompletionResultType]::ParameterName, 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind''s schema (a step''s `requiredSchemas`, a response''s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane''s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)')
            [CompletionResult]::new('--hcl', '--hcl', [CompletionResultType]::ParameterName, 'Use the `.hcl` files of this directory for the function-hcl step instead of the Composition''s inline bundle')
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'The function-hcl step `--hcl` replaces, when the Composition has several (only with `--hcl`: every step of the pipeline runs)')
            [CompletionResult]::new('--crossplane-version', '--crossplane-version', [CompletionResultType]::ParameterName, 'The Crossplane version whose render output to reproduce (default: the newest verified, CLI 2.5 with engine 2.3.4): up to 2.2 the classic `crossplane render` (below 2.0 every composed resource gets a `generateName`); 2.3 and later the engine dialect of `crossplane composition render` (names derived from a deterministic XR UID, `spec.crossplane.resourceRefs`, the `Responsive`/`Synced`/`Ready` conditions, results from the reconciler''s events). In the engine dialect a patch version names the engine release, as the CLI''s own `--crossplane-version` picks the Crossplane image: 2.3.0–2.3.3 (and 2.4.0-rc.0) give that release''s output, where it differs (see docs/render.md); other versions the newest verified engine''s')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Validate the XR and every composed resource against these CRD/XRD files or folders (repeatable, or comma-separated; `.crd-sources.yaml` and `.crds/` as in `fnhcl validate`): problems are errors pointing at the HCL `body` that produced the resource, at the attribute itself when its key is written literally. Exit status 1 when any')
            [CompletionResult]::new('--crossplane-image', '--crossplane-image', [CompletionResultType]::ParameterName, '`crossplane render`''s Crossplane image: accepted and ignored (fnhcl runs no containers; a warning says so)')
            [CompletionResult]::new('--crossplane-binary', '--crossplane-binary', [CompletionResultType]::ParameterName, '`crossplane render`''s local Crossplane binary: accepted and ignored')
            [CompletionResult]::new('--crossplane-docker-network', '--crossplane-docker-network', [CompletionResultType]::ParameterName, '`crossplane render`''s Docker network: accepted and ignored')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, '`crossplane render`''s package cache: accepted and ignored')
            [CompletionResult]::new('--max-concurrency', '--max-concurrency', [CompletionResultType]::ParameterName, '`crossplane render`''s concurrency for building embedded functions: accepted and ignored')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Print a `Result` document for every function result')
            [CompletionResult]::new('--include-function-results', '--include-function-results', [CompletionResultType]::ParameterName, 'Print a `Result` document for every function result')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print the final context as a `Context` document')
            [CompletionResult]::new('--include-context', '--include-context', [CompletionResultType]::ParameterName, 'Print the final context as a `Context` document')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Copy the input XR''s `spec` and `metadata` into the output XR')
            [CompletionResult]::new('--include-full-xr', '--include-full-xr', [CompletionResultType]::ParameterName, 'Copy the input XR''s `spec` and `metadata` into the output XR')
            [CompletionResult]::new('--show-discarded', '--show-discarded', [CompletionResultType]::ParameterName, 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection''s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR''s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes')
            [CompletionResult]::new('--explain-missing', '--explain-missing', [CompletionResultType]::ParameterName, 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection''s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR''s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes')
            [CompletionResult]::new('--detailed-exit-code', '--detailed-exit-code', [CompletionResultType]::ParameterName, 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does), so a wrapper can tell a fatal result from other failures')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;lsp' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;composition' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, '`fnhcl render` under the name `crossplane composition render` gives it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;composition;render' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`')
            [CompletionResult]::new('--observed-resources', '--observed-resources', [CompletionResultType]::ParameterName, 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Resources the requirements loop may return (a YAML file or directory). Repeatable')
            [CompletionResult]::new('--required-resources', '--required-resources', [CompletionResultType]::ParameterName, 'Resources the requirements loop may return (a YAML file or directory). Repeatable')
            [CompletionResult]::new('--extra-resources', '--extra-resources', [CompletionResultType]::ParameterName, 'Resources the requirements loop may return (a YAML file or directory). Repeatable')
            [CompletionResult]::new('--context-files', '--context-files', [CompletionResultType]::ParameterName, 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated')
            [CompletionResult]::new('--context-values', '--context-values', [CompletionResultType]::ParameterName, 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)')
            [CompletionResult]::new('--function-annotations', '--function-annotations', [CompletionResultType]::ParameterName, 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)')
            [CompletionResult]::new('--function-credentials', '--function-credentials', [CompletionResultType]::ParameterName, 'Secrets whose `data` become the steps'' `credentials` (a YAML file or directory)')
            [CompletionResult]::new('--xrd', '--xrd', [CompletionResultType]::ParameterName, 'An XRD whose OpenAPI schema defaults are applied to the XR first')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind''s schema (a step''s `requiredSchemas`, a response''s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it')
            [CompletionResult]::new('--required-schemas', '--required-schemas', [CompletionResultType]::ParameterName, 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind''s schema (a step''s `requiredSchemas`, a response''s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane''s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)')
            [CompletionResult]::new('--hcl', '--hcl', [CompletionResultType]::ParameterName, 'Use the `.hcl` files of this directory for the function-hcl step instead of the Composition''s inline bundle')
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'The function-hcl step `--hcl` replaces, when the Composition has several (only with `--hcl`: every step of the pipeline runs)')
            [CompletionResult]::new('--crossplane-version', '--crossplane-version', [CompletionResultType]::ParameterName, 'The Crossplane version whose render output to reproduce (default: the newest verified, CLI 2.5 with engine 2.3.4): up to 2.2 the classic `crossplane render` (below 2.0 every composed resource gets a `generateName`); 2.3 and later the engine dialect of `crossplane composition render` (names derived from a deterministic XR UID, `spec.crossplane.resourceRefs`, the `Responsive`/`Synced`/`Ready` conditions, results from the reconciler''s events). In the engine dialect a patch version names the engine release, as the CLI''s own `--crossplane-version` picks the Crossplane image: 2.3.0–2.3.3 (and 2.4.0-rc.0) give that release''s output, where it differs (see docs/render.md); other versions the newest verified engine''s')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Validate the XR and every composed resource against these CRD/XRD files or folders (repeatable, or comma-separated; `.crd-sources.yaml` and `.crds/` as in `fnhcl validate`): problems are errors pointing at the HCL `body` that produced the resource, at the attribute itself when its key is written literally. Exit status 1 when any')
            [CompletionResult]::new('--crossplane-image', '--crossplane-image', [CompletionResultType]::ParameterName, '`crossplane render`''s Crossplane image: accepted and ignored (fnhcl runs no containers; a warning says so)')
            [CompletionResult]::new('--crossplane-binary', '--crossplane-binary', [CompletionResultType]::ParameterName, '`crossplane render`''s local Crossplane binary: accepted and ignored')
            [CompletionResult]::new('--crossplane-docker-network', '--crossplane-docker-network', [CompletionResultType]::ParameterName, '`crossplane render`''s Docker network: accepted and ignored')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, '`crossplane render`''s package cache: accepted and ignored')
            [CompletionResult]::new('--max-concurrency', '--max-concurrency', [CompletionResultType]::ParameterName, '`crossplane render`''s concurrency for building embedded functions: accepted and ignored')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Print a `Result` document for every function result')
            [CompletionResult]::new('--include-function-results', '--include-function-results', [CompletionResultType]::ParameterName, 'Print a `Result` document for every function result')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print the final context as a `Context` document')
            [CompletionResult]::new('--include-context', '--include-context', [CompletionResultType]::ParameterName, 'Print the final context as a `Context` document')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Copy the input XR''s `spec` and `metadata` into the output XR')
            [CompletionResult]::new('--include-full-xr', '--include-full-xr', [CompletionResultType]::ParameterName, 'Copy the input XR''s `spec` and `metadata` into the output XR')
            [CompletionResult]::new('--show-discarded', '--show-discarded', [CompletionResultType]::ParameterName, 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection''s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR''s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes')
            [CompletionResult]::new('--explain-missing', '--explain-missing', [CompletionResultType]::ParameterName, 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection''s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR''s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes')
            [CompletionResult]::new('--detailed-exit-code', '--detailed-exit-code', [CompletionResultType]::ParameterName, 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does), so a wrapper can tell a fatal result from other failures')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;composition;help' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, '`fnhcl render` under the name `crossplane composition render` gives it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;composition;help;render' {
            break
        }
        'fnhcl;composition;help;help' {
            break
        }
        'fnhcl;operation' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render an Operation like `crossplane operation render`, without Docker')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;operation;render' {
            [CompletionResult]::new('--context-files', '--context-files', [CompletionResultType]::ParameterName, 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated')
            [CompletionResult]::new('--context-values', '--context-values', [CompletionResultType]::ParameterName, 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`')
            [CompletionResult]::new('--function-credentials', '--function-credentials', [CompletionResultType]::ParameterName, 'Secrets whose `data` become the steps'' `credentials` (a YAML file or directory)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file): `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC')
            [CompletionResult]::new('--function-annotations', '--function-annotations', [CompletionResultType]::ParameterName, 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file): `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Resources the pipeline''s requirements may fetch (a YAML file or directory). Repeatable')
            [CompletionResult]::new('--required-resources', '--required-resources', [CompletionResultType]::ParameterName, 'Resources the pipeline''s requirements may fetch (a YAML file or directory). Repeatable')
            [CompletionResult]::new('--required-schemas', '--required-schemas', [CompletionResultType]::ParameterName, 'OpenAPI v3 documents served to steps that ask for schemas (a directory of JSON files, as `kubectl get --raw /openapi/v3/<group-version>` prints them), as `render -s` reads them')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'The watched resource of a WatchOperation (a YAML file holding exactly one resource): every step gets it as the bootstrap requirement `ops.crossplane.io/watched-resource`, and it is added to the required resources')
            [CompletionResult]::new('--watched-resource', '--watched-resource', [CompletionResultType]::ParameterName, 'The watched resource of a WatchOperation (a YAML file holding exactly one resource): every step gets it as the bootstrap requirement `ops.crossplane.io/watched-resource`, and it is added to the required resources')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane''s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)')
            [CompletionResult]::new('--crossplane-version', '--crossplane-version', [CompletionResultType]::ParameterName, '`crossplane operation render`''s Crossplane image version: accepted and ignored (fnhcl renders as engine v2.3.4 does; a warning says so)')
            [CompletionResult]::new('--crossplane-image', '--crossplane-image', [CompletionResultType]::ParameterName, '`crossplane operation render`''s Crossplane image: accepted and ignored')
            [CompletionResult]::new('--crossplane-binary', '--crossplane-binary', [CompletionResultType]::ParameterName, '`crossplane operation render`''s local Crossplane binary: accepted and ignored')
            [CompletionResult]::new('--crossplane-docker-network', '--crossplane-docker-network', [CompletionResultType]::ParameterName, '`crossplane operation render`''s Docker network: accepted and ignored')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, '`crossplane operation render`''s package cache: accepted and ignored')
            [CompletionResult]::new('--max-concurrency', '--max-concurrency', [CompletionResultType]::ParameterName, '`crossplane operation render`''s concurrency for building embedded functions: accepted and ignored')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, '`crossplane operation render`''s project file (its functions are built into containers): accepted and ignored; give FUNCTIONS')
            [CompletionResult]::new('--project-file', '--project-file', [CompletionResultType]::ParameterName, '`crossplane operation render`''s project file (its functions are built into containers): accepted and ignored; give FUNCTIONS')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print the final context as a `Context` document')
            [CompletionResult]::new('--include-context', '--include-context', [CompletionResultType]::ParameterName, 'Print the final context as a `Context` document')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the input Operation''s `spec` in the output Operation')
            [CompletionResult]::new('--include-full-operation', '--include-full-operation', [CompletionResultType]::ParameterName, 'Print the input Operation''s `spec` in the output Operation')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Print a `Result` document for each of the reconciler''s events (the steps'' normal and warning results)')
            [CompletionResult]::new('--include-function-results', '--include-function-results', [CompletionResultType]::ParameterName, 'Print a `Result` document for each of the reconciler''s events (the steps'' normal and warning results)')
            [CompletionResult]::new('--detailed-exit-code', '--detailed-exit-code', [CompletionResultType]::ParameterName, 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;operation;help' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render an Operation like `crossplane operation render`, without Docker')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;operation;help;render' {
            break
        }
        'fnhcl;operation;help;help' {
            break
        }
        'fnhcl;function' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve function-hcl over gRPC: fnhcl as the function itself')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;function;run' {
            [CompletionResult]::new('--request', '--request', [CompletionResultType]::ParameterName, 'The RunFunctionRequest as protobuf JSON (`-` reads standard input)')
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'The pipeline step to use when SOURCE is a Composition with several function-hcl steps')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;function;serve' {
            [CompletionResult]::new('--address', '--address', [CompletionResultType]::ParameterName, 'The address to listen on, `HOST:PORT` (port 0: a free one, printed at start). Default: `127.0.0.1:9443` with `--insecure` (plaintext answers anyone who can reach it: give `0.0.0.0:9443` to serve other hosts), `0.0.0.0:9443` with mutual TLS')
            [CompletionResult]::new('--tls-certs-dir', '--tls-certs-dir', [CompletionResultType]::ParameterName, 'Serve mutual TLS with the certificates in this folder, as function SDKs read them: `tls.crt` and `tls.key` (the server''s), `ca.crt` (the CA that signs clients'' certificates; a client without one is refused). Crossplane mounts them in-cluster')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'How each request''s log line is written')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'The longest one call may evaluate, whatever deadline its caller sent (`1m`, `30s`): then it ends with `DeadlineExceeded`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Serve plaintext gRPC (what `crossplane render`''s Development runtime dials)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;function;help' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve function-hcl over gRPC: fnhcl as the function itself')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;function;help;run' {
            break
        }
        'fnhcl;function;help;serve' {
            break
        }
        'fnhcl;function;help;help' {
            break
        }
        'fnhcl;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors and the command''s output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is being done')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'fnhcl;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a composition folder that checks, renders and tests green at once')
            [CompletionResult]::new('package', 'package', [CompletionResultType]::ParameterValue, 'Bundle a composition directory as txtar, or write it into (or extract it from) a Composition')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert a Composition''s patch-and-transform steps to function-hcl, and prove it')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Find every mistake function-hcl would reject, without running it, and lint the rest')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Evaluate an expression the way function-hcl does, with `req` built from your files')
            [CompletionResult]::new('fmt', 'fmt', [CompletionResultType]::ParameterValue, 'Format HCL files canonically (Go''s `hclwrite.Format`, as `fn-hcl-tools fmt`)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two render streams document by document, or what a change does to a render')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run composition tests: render each case natively and check the output')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Validate resources against CRD and XRD schemas, offline, as `crossplane beta validate`')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render a composite resource like `crossplane render`, without Docker')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'A language server over standard input and output, for editors')
            [CompletionResult]::new('composition', 'composition', [CompletionResultType]::ParameterValue, 'Composition commands, as the Crossplane CLI names them (v2.3 and later)')
            [CompletionResult]::new('operation', 'operation', [CompletionResultType]::ParameterValue, 'Operation commands, as the Crossplane CLI names them (v2.5 and later)')
            [CompletionResult]::new('function', 'function', [CompletionResultType]::ParameterValue, 'Run function-hcl on one RunFunctionRequest, as Crossplane would call it')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fnhcl;help;init' {
            break
        }
        'fnhcl;help;package' {
            break
        }
        'fnhcl;help;convert' {
            break
        }
        'fnhcl;help;check' {
            break
        }
        'fnhcl;help;eval' {
            break
        }
        'fnhcl;help;fmt' {
            break
        }
        'fnhcl;help;diff' {
            break
        }
        'fnhcl;help;test' {
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Make a test case of a function-hcl debug dump or a pipeline-inspector log')
            break
        }
        'fnhcl;help;test;import' {
            break
        }
        'fnhcl;help;validate' {
            break
        }
        'fnhcl;help;render' {
            break
        }
        'fnhcl;help;lsp' {
            break
        }
        'fnhcl;help;composition' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, '`fnhcl render` under the name `crossplane composition render` gives it')
            break
        }
        'fnhcl;help;composition;render' {
            break
        }
        'fnhcl;help;operation' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render an Operation like `crossplane operation render`, without Docker')
            break
        }
        'fnhcl;help;operation;render' {
            break
        }
        'fnhcl;help;function' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve function-hcl over gRPC: fnhcl as the function itself')
            break
        }
        'fnhcl;help;function;run' {
            break
        }
        'fnhcl;help;function;serve' {
            break
        }
        'fnhcl;help;completions' {
            break
        }
        'fnhcl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
