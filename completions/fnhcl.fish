# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_fnhcl_global_optspecs
    string join \n color= format= q/quiet v/verbose h/help V/version
end

function __fish_fnhcl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_fnhcl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_fnhcl_using_subcommand
    set -l cmd (__fish_fnhcl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c fnhcl -n "__fish_fnhcl_needs_command" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_needs_command" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_needs_command" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "init" -d 'Create a composition folder that checks, renders and tests green at once'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "package" -d 'Bundle a composition directory as txtar, or write it into (or extract it from) a Composition'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "convert" -d 'Convert a Composition\'s patch-and-transform steps to function-hcl, and prove it'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "check" -d 'Find every mistake function-hcl would reject, without running it, and lint the rest'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "eval" -d 'Evaluate an expression the way function-hcl does, with `req` built from your files'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "fmt" -d 'Format HCL files canonically (Go\'s `hclwrite.Format`, as `fn-hcl-tools fmt`)'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "diff" -d 'Compare two render streams document by document, or what a change does to a render'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "test" -d 'Run composition tests: render each case natively and check the output'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "validate" -d 'Validate resources against CRD and XRD schemas, offline, as `crossplane beta validate`'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "render" -d 'Render a composite resource like `crossplane render`, without Docker'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "lsp" -d 'A language server over standard input and output, for editors'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "composition" -d 'Composition commands, as the Crossplane CLI names them (v2.3 and later)'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "operation" -d 'Operation commands, as the Crossplane CLI names them (v2.5 and later)'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "function" -d 'Run function-hcl on one RunFunctionRequest, as Crossplane would call it'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c fnhcl -n "__fish_fnhcl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand init" -l from-xrd -d 'Scaffold for the XR type of this CompositeResourceDefinition: its group, kind and version, its status fields, and an example XR with its required spec fields filled' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand init" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand init" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand init" -l force -d 'Overwrite files that exist (never through a symbolic link)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand init" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand init" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand init" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l into -d 'Write the bundle into the function-hcl step of this Composition (its `input.hcl`), editing only that value: comments, key order and every other byte stay as they are' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l extract -d 'Write the files of the bundle in this Composition\'s function-hcl step into `--out`' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l out -d 'The directory `--extract` writes to (created when missing)' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l step -d 'The pipeline step to use when the Composition has several function-hcl steps' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l check -d 'With `--into`, write nothing: exit 1 when the Composition\'s bundle is stale (differs from DIR\'s files, as `fnhcl check` reports with I027), 0 when it is up to date'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l force -d 'With `--extract`, overwrite files whose contents differ from the bundle'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -l skip-analysis -d 'Package even when `fnhcl check` finds errors (syntax and structure) in the files, as `fn-hcl-tools package --skip-analysis` does'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand package" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -s o -l out -d 'Write the new Composition (`composition.yaml`) and each step\'s program (`STEP/main.hcl`) into this folder (created when missing)' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -l verify -d 'Render the original and the converted composition with this XR and compare the XR\'s status and every composed resource' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -l observed-resources -d 'With `--verify`: observed composed resources (a YAML file or directory)' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -s e -l required-resources -d 'With `--verify`: resources the requirements loop may return. Repeatable' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -l context-files -d 'With `--verify`: context values from files, as `KEY=PATH`' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -l context-values -d 'With `--verify`: context values as `KEY=VALUE`' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -l functions -d 'With `--verify`: the Functions, for steps that are neither P&T nor function-hcl' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -l crossplane-version -d 'With `--verify`: the Crossplane version whose render to follow' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand convert" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -l step -d 'The pipeline step to check when a Composition has several function-hcl steps' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -l fail-level -d 'The lowest severity that makes the command fail (exit 1)' -r -f -a "error\t'Fail on errors only'
warning\t'Fail on warnings and errors'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -l config -d 'Use this configuration file for every path, instead of the `.fnhcl.toml` found in each path\'s folder or above it' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -l schemas -d 'CRD/XRD files or folders (repeatable or comma-separated) to check resource bodies against (rules L613–L615); default: `schemas` in `.fnhcl.toml`, else the nearest `.crd-sources.yaml` or `.crds/` at or above each composition' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -l explain -d 'Explain a rule (by code or name): what it finds, why, a bad and a good example; or any other diagnostic code fnhcl prints (`E402`, `T301`…): its severity and meaning' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -l list-rules -d 'List every rule: code, name, default level and what it finds'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand check" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -l hcl -d 'A composition directory whose checks must pass and whose user functions `invoke` can call' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -l xr -d 'The composite resource (XR): `req.composite`' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -s o -l observed-resources -d 'Observed composed resources (a YAML file or a directory of them): `req.resource` and, for collection members, `req.resources`. Each needs the annotation `crossplane.io/composition-resource-name`' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -s e -l required-resources -l extra-resources -d 'Required resources (a YAML file or a directory), as `render -e` takes them: the requirements of the `--hcl` program select from them, the program running until they settle. `NAME=PATH` puts the resources at `req.extra_resources.NAME` directly, with or without a program. Repeatable' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -l context-values -d 'Context values as `KEY=VALUE` (JSON or YAML values), `;`-separated or repeated: `req.context.KEY`' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -l context-files -d 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand eval" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -s r -l recursive -d 'Walk directories recursively, the default (`-r=false` or `--recursive=false`: only their own `.hcl` files). Hidden folders are walked too; `.git`, `.hg`, `.svn` and `.jj` are skipped' -r -f -a "true\t''
false\t''"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -l normalize-literals -d 'Rewrite `key: value` in object literals to `key = value` first, as function-hcl does (`--normalize-literals=false`: plain `hclwrite.Format`)' -r -f -a "true\t''
false\t''"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -s c -l check -d 'List the files that are not formatted and exit 1 if there are any; write nothing'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -l diff -d 'Print a unified diff of what would change; write nothing'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand fmt" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -l context -d 'Lines of context around each change' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -l ignore-paths -d 'A field path to leave out of the comparison (repeatable): `metadata.labels`, `metadata.annotations[example.org/key]` (a key in brackets, dots and slashes included), `spec.items[0]`; a name reached on a list applies to each element' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -l rev -d 'Render the arguments after `--` twice, with the composition files as they are in this git revision (read through git; the work tree is not touched) and as they are now, and compare the two' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand diff" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l filter -d 'Run only the cases whose name contains this text (a case folder\'s path, or `FILE::NAME` of a test in a file)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l junit -d 'Also write a JUnit XML report to this file' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l context -d 'Lines of context around each difference' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l validate -d 'Validate each case\'s XR and composed resources against these CRD/XRD files or folders (repeatable or comma-separated), as `render --validate`: a problem fails the case' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l lcov -d 'Write the coverage of the compositions the cases rendered to this file, as LCOV (genhtml, Codecov, editors; `fnhcl lsp` shows it), and print a summary per composition' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l coverage-min -d 'Fail (exit 1) when the coverage of the whole run — blocks rendered, branches taken and user functions called, together — is below this percentage; prints the summary' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l update -d 'Write `expected.yaml` of every case whose output differs (and of new cases: an `xr.yaml` in a folder inside a `tests` folder); cases with `expected-error.txt` are left alone'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -s w -l watch -d 'Run again on every change below the PATHs (the screen is cleared first on a terminal); Ctrl-C stops'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -l allow-outside-paths -d 'Let cases name files outside the PATHs (an absolute or `..` path in `args` or `source`, a link leading out). Without it such a case fails, so that a case from an untrusted change cannot print other files into a CI log'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -a "import" -d 'Make a test case of a function-hcl debug dump or a pipeline-inspector log'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and not __fish_seen_subcommand_from import help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -l out -d 'The folder to write the case into, below the composition it tests (created; existing case files are never overwritten)' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -l step -d 'Pipeline inspector log: only the requests of this pipeline step (its name, or its Function\'s name when the log has no step names)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -l xr -d 'Pipeline inspector log: only the requests for this XR (`name` or `namespace/name`)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -l index -d 'Pipeline inspector log: the Nth request (from 1) of those left by `--step` and `--xr`, instead of the last function-hcl one' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from help" -f -a "import" -d 'Make a test case of a function-hcl debug dump or a pipeline-inspector log'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand test; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -l output -d 'The report: crossplane\'s lines, or one JSON or YAML document: the diagnostics document of `--format json` (which prints the same), with the totals in `summary` and each resource as `resources`. (`-o` still works, hidden: elsewhere `-o` names observed resources.)' -r -f -a "text\t'`[✓]`/`[x]`/`[!]` lines and a total, as `crossplane beta validate` prints them'
json\t'`{"diagnostics": […], "summary": …, "resources": […]}`, as `--format json`'
yaml\t'The same document as YAML'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -l skip-success-results -d 'Print nothing for resources that are valid'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -l error-on-missing-schemas -d 'Fail (exit 1) when a resource\'s kind has no schema'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand validate" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s o -l observed-resources -d 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s e -l required-resources -l extra-resources -d 'Resources the requirements loop may return (a YAML file or directory). Repeatable' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l context-files -d 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l context-values -d 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s a -l function-annotations -d 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l function-credentials -d 'Secrets whose `data` become the steps\' `credentials` (a YAML file or directory)' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l xrd -d 'An XRD whose OpenAPI schema defaults are applied to the XR first' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s s -l required-schemas -d 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind\'s schema (a step\'s `requiredSchemas`, a response\'s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l timeout -d 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane\'s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l hcl -d 'Use the `.hcl` files of this directory for the function-hcl step instead of the Composition\'s inline bundle' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l step -d 'The function-hcl step `--hcl` replaces, when the Composition has several (only with `--hcl`: every step of the pipeline runs)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l crossplane-version -d 'The Crossplane version whose render output to reproduce (default: the newest verified, CLI 2.5 with engine 2.3.4): up to 2.2 the classic `crossplane render` (below 2.0 every composed resource gets a `generateName`); 2.3 and later the engine dialect of `crossplane composition render` (names derived from a deterministic XR UID, `spec.crossplane.resourceRefs`, the `Responsive`/`Synced`/`Ready` conditions, results from the reconciler\'s events). In the engine dialect a patch version names the engine release, as the CLI\'s own `--crossplane-version` picks the Crossplane image: 2.3.0–2.3.3 (and 2.4.0-rc.0) give that release\'s output, where it differs (see docs/render.md); other versions the newest verified engine\'s' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l validate -d 'Validate the XR and every composed resource against these CRD/XRD files or folders (repeatable, or comma-separated; `.crd-sources.yaml` and `.crds/` as in `fnhcl validate`): problems are errors pointing at the HCL `body` that produced the resource, at the attribute itself when its key is written literally. Exit status 1 when any' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l crossplane-image -d '`crossplane render`\'s Crossplane image: accepted and ignored (fnhcl runs no containers; a warning says so)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l crossplane-binary -d '`crossplane render`\'s local Crossplane binary: accepted and ignored' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l crossplane-docker-network -d '`crossplane render`\'s Docker network: accepted and ignored' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l cache-dir -d '`crossplane render`\'s package cache: accepted and ignored' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l max-concurrency -d '`crossplane render`\'s concurrency for building embedded functions: accepted and ignored' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s r -l include-function-results -d 'Print a `Result` document for every function result'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s c -l include-context -d 'Print the final context as a `Context` document'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s x -l include-full-xr -d 'Copy the input XR\'s `spec` and `metadata` into the output XR'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l show-discarded -l explain-missing -d 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection\'s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR\'s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -l detailed-exit-code -d 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does), so a wrapper can tell a fatal result from other failures'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s w -l watch -d 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand render" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand lsp" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand lsp" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand lsp" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand lsp" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand lsp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand lsp" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and not __fish_seen_subcommand_from render help" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and not __fish_seen_subcommand_from render help" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and not __fish_seen_subcommand_from render help" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and not __fish_seen_subcommand_from render help" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and not __fish_seen_subcommand_from render help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and not __fish_seen_subcommand_from render help" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and not __fish_seen_subcommand_from render help" -f -a "render" -d '`fnhcl render` under the name `crossplane composition render` gives it'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and not __fish_seen_subcommand_from render help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s o -l observed-resources -d 'Observed composed resources (a YAML file or directory), each with the annotation `crossplane.io/composition-resource-name`' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s e -l required-resources -l extra-resources -d 'Resources the requirements loop may return (a YAML file or directory). Repeatable' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l context-files -d 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l context-values -d 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s a -l function-annotations -d 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC at `render.crossplane.io/runtime-development-target` (default `localhost:9443`)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l function-credentials -d 'Secrets whose `data` become the steps\' `credentials` (a YAML file or directory)' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l xrd -d 'An XRD whose OpenAPI schema defaults are applied to the XR first' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s s -l required-schemas -d 'A folder of OpenAPI v3 documents in JSON (`kubectl get --raw /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas served to functions that ask for a kind\'s schema (a step\'s `requiredSchemas`, a response\'s `requirements.schemas`). A kind none of them has is answered with an empty schema, as crossplane answers it' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l timeout -d 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane\'s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l hcl -d 'Use the `.hcl` files of this directory for the function-hcl step instead of the Composition\'s inline bundle' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l step -d 'The function-hcl step `--hcl` replaces, when the Composition has several (only with `--hcl`: every step of the pipeline runs)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l crossplane-version -d 'The Crossplane version whose render output to reproduce (default: the newest verified, CLI 2.5 with engine 2.3.4): up to 2.2 the classic `crossplane render` (below 2.0 every composed resource gets a `generateName`); 2.3 and later the engine dialect of `crossplane composition render` (names derived from a deterministic XR UID, `spec.crossplane.resourceRefs`, the `Responsive`/`Synced`/`Ready` conditions, results from the reconciler\'s events). In the engine dialect a patch version names the engine release, as the CLI\'s own `--crossplane-version` picks the Crossplane image: 2.3.0–2.3.3 (and 2.4.0-rc.0) give that release\'s output, where it differs (see docs/render.md); other versions the newest verified engine\'s' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l validate -d 'Validate the XR and every composed resource against these CRD/XRD files or folders (repeatable, or comma-separated; `.crd-sources.yaml` and `.crds/` as in `fnhcl validate`): problems are errors pointing at the HCL `body` that produced the resource, at the attribute itself when its key is written literally. Exit status 1 when any' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l crossplane-image -d '`crossplane render`\'s Crossplane image: accepted and ignored (fnhcl runs no containers; a warning says so)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l crossplane-binary -d '`crossplane render`\'s local Crossplane binary: accepted and ignored' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l crossplane-docker-network -d '`crossplane render`\'s Docker network: accepted and ignored' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l cache-dir -d '`crossplane render`\'s package cache: accepted and ignored' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l max-concurrency -d '`crossplane render`\'s concurrency for building embedded functions: accepted and ignored' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s r -l include-function-results -d 'Print a `Result` document for every function result'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s c -l include-context -d 'Print the final context as a `Context` document'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s x -l include-full-xr -d 'Copy the input XR\'s `spec` and `metadata` into the output XR'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l show-discarded -l explain-missing -d 'After the documents, list on stderr every block function-hcl discarded or deferred (a value not known yet, a false condition, a secret that is not base64), one entry per block (a collection\'s members together): what was not known, at which file:line:col, and which input would make it known (observed resources `-o`, the XR\'s status, required resources `-e`, context). It replaces the E402 warnings about them; with `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -l detailed-exit-code -d 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does), so a wrapper can tell a fatal result from other failures'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s w -l watch -d 'Render again on every save of the composition or an input file (the screen is cleared first on a terminal); Ctrl-C stops'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from render" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from help" -f -a "render" -d '`fnhcl render` under the name `crossplane composition render` gives it'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand composition; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and not __fish_seen_subcommand_from render help" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and not __fish_seen_subcommand_from render help" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and not __fish_seen_subcommand_from render help" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and not __fish_seen_subcommand_from render help" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and not __fish_seen_subcommand_from render help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and not __fish_seen_subcommand_from render help" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and not __fish_seen_subcommand_from render help" -f -a "render" -d 'Render an Operation like `crossplane operation render`, without Docker'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and not __fish_seen_subcommand_from render help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l context-files -d 'Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l context-values -d 'Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over `--context-files`' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l function-credentials -d 'Secrets whose `data` become the steps\' `credentials` (a YAML file or directory)' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s a -l function-annotations -d 'Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions file): `-a render.crossplane.io/runtime=Development` calls every step that is not function-hcl over gRPC' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s e -l required-resources -d 'Resources the pipeline\'s requirements may fetch (a YAML file or directory). Repeatable' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l required-schemas -d 'OpenAPI v3 documents served to steps that ask for schemas (a directory of JSON files, as `kubectl get --raw /openapi/v3/<group-version>` prints them), as `render -s` reads them' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s w -l watched-resource -d 'The watched resource of a WatchOperation (a YAML file holding exactly one resource): every step gets it as the bootstrap requirement `ops.crossplane.io/watched-resource`, and it is added to the required resources' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l timeout -d 'Stop a function-hcl step still evaluating this long after the inputs are read, with crossplane\'s `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l crossplane-version -d '`crossplane operation render`\'s Crossplane image version: accepted and ignored (fnhcl renders as engine v2.3.4 does; a warning says so)' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l crossplane-image -d '`crossplane operation render`\'s Crossplane image: accepted and ignored' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l crossplane-binary -d '`crossplane operation render`\'s local Crossplane binary: accepted and ignored' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l crossplane-docker-network -d '`crossplane operation render`\'s Docker network: accepted and ignored' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l cache-dir -d '`crossplane operation render`\'s package cache: accepted and ignored' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l max-concurrency -d '`crossplane operation render`\'s concurrency for building embedded functions: accepted and ignored' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s f -l project-file -d '`crossplane operation render`\'s project file (its functions are built into containers): accepted and ignored; give FUNCTIONS' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s c -l include-context -d 'Print the final context as a `Context` document'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s o -l include-full-operation -d 'Print the input Operation\'s `spec` in the output Operation'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s r -l include-function-results -d 'Print a `Result` document for each of the reconciler\'s events (the steps\' normal and warning results)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -l detailed-exit-code -d 'Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal render` does)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from render" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from help" -f -a "render" -d 'Render an Operation like `crossplane operation render`, without Docker'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand operation; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -f -a "run" -d 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -f -a "serve" -d 'Serve function-hcl over gRPC: fnhcl as the function itself'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and not __fish_seen_subcommand_from run serve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from run" -l request -d 'The RunFunctionRequest as protobuf JSON (`-` reads standard input)' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from run" -l step -d 'The pipeline step to use when SOURCE is a Composition with several function-hcl steps' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from run" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from run" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from run" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from run" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from run" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -l address -d 'The address to listen on, `HOST:PORT` (port 0: a free one, printed at start). Default: `127.0.0.1:9443` with `--insecure` (plaintext answers anyone who can reach it: give `0.0.0.0:9443` to serve other hosts), `0.0.0.0:9443` with mutual TLS' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -l tls-certs-dir -d 'Serve mutual TLS with the certificates in this folder, as function SDKs read them: `tls.crt` and `tls.key` (the server\'s), `ca.crt` (the CA that signs clients\' certificates; a client without one is refused). Crossplane mounts them in-cluster' -r -F
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -l log-format -d 'How each request\'s log line is written' -r -f -a "text\t'`key=value` pairs'
json\t'One JSON object per line'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -l timeout -d 'The longest one call may evaluate, whatever deadline its caller sent (`1m`, `30s`): then it ends with `DeadlineExceeded`' -r
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -l insecure -d 'Serve plaintext gRPC (what `crossplane render`\'s Development runtime dials)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from serve" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from help" -f -a "run" -d 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Serve function-hcl over gRPC: fnhcl as the function itself'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand function; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand completions" -l color -d 'When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR and TERM=dumb; `always` and `never` override them' -r -f -a "auto\t'Colour when the stream is a terminal and the environment allows it'
always\t'Always colour'
never\t'Never colour'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand completions" -l format -d 'How to print diagnostics: `human` (source snippets), `json`, `github` (workflow commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one `crossplane: error: …` line per error, as scripts written for the Crossplane CLI expect). Commands whose output is not diagnostics: `diff` prints its differences as `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value as HCL (`human`) or `json`; `validate --format json` prints one document, its report with the diagnostics. Other commands print `markdown` as `human`' -r -f -a "human\t'Graphical report with source snippets (for `eval`: the value as HCL)'
json\t'One JSON document: `{"diagnostics": [...], "summary": {...}}`'
github\t'GitHub Actions workflow commands (`::error file=...::message`)'
sarif\t'A SARIF 2.1.0 log'
markdown\t'Markdown, for `diff` (one block per changed document, ready for a pull-request comment); other commands print their diagnostics as `human`'
crossplane\t'Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error: …`): a failed render\'s line is crossplane\'s word for word, for scripts that match it'"
complete -c fnhcl -n "__fish_fnhcl_using_subcommand completions" -s q -l quiet -d 'Print only errors and the command\'s output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand completions" -s v -l verbose -d 'Print more about what is being done'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "init" -d 'Create a composition folder that checks, renders and tests green at once'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "package" -d 'Bundle a composition directory as txtar, or write it into (or extract it from) a Composition'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "convert" -d 'Convert a Composition\'s patch-and-transform steps to function-hcl, and prove it'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "check" -d 'Find every mistake function-hcl would reject, without running it, and lint the rest'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "eval" -d 'Evaluate an expression the way function-hcl does, with `req` built from your files'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "fmt" -d 'Format HCL files canonically (Go\'s `hclwrite.Format`, as `fn-hcl-tools fmt`)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "diff" -d 'Compare two render streams document by document, or what a change does to a render'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "test" -d 'Run composition tests: render each case natively and check the output'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "validate" -d 'Validate resources against CRD and XRD schemas, offline, as `crossplane beta validate`'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "render" -d 'Render a composite resource like `crossplane render`, without Docker'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "lsp" -d 'A language server over standard input and output, for editors'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "composition" -d 'Composition commands, as the Crossplane CLI names them (v2.3 and later)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "operation" -d 'Operation commands, as the Crossplane CLI names them (v2.5 and later)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "function" -d 'Run function-hcl on one RunFunctionRequest, as Crossplane would call it'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and not __fish_seen_subcommand_from init package convert check eval fmt diff test validate render lsp composition operation function completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and __fish_seen_subcommand_from test" -f -a "import" -d 'Make a test case of a function-hcl debug dump or a pipeline-inspector log'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and __fish_seen_subcommand_from composition" -f -a "render" -d '`fnhcl render` under the name `crossplane composition render` gives it'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and __fish_seen_subcommand_from operation" -f -a "render" -d 'Render an Operation like `crossplane operation render`, without Docker'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and __fish_seen_subcommand_from function" -f -a "run" -d 'Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse'
complete -c fnhcl -n "__fish_fnhcl_using_subcommand help; and __fish_seen_subcommand_from function" -f -a "serve" -d 'Serve function-hcl over gRPC: fnhcl as the function itself'
