//! Documentation shown in hovers and completion: the built-in functions, the blocks and
//! attributes of function-hcl.
//!
//! Every example result was checked against Go's HCL and Terraform's function library.

/// A one-paragraph description of a built-in function (Markdown), as Terraform 1.5.7 and
/// function-hcl define it.
pub fn function_doc(name: &str) -> Option<&'static str> {
    Some(match name {
        // Numbers.
        "abs" => {
            r#"The absolute value of a number: negative numbers lose their sign, others are returned unchanged.

`abs(-3.5)` → `3.5`"#
        }
        "ceil" => {
            r#"Rounds a number up to the next whole number (unchanged if it is already whole).

`ceil(4.1)` → `5`"#
        }
        "floor" => {
            r#"Rounds a number down to the previous whole number (unchanged if it is already whole).

`floor(4.9)` → `4`"#
        }
        "log" => {
            r#"`log(number, base)`: the logarithm of `number` in the given `base`.

`log(8, 2)` → `3`"#
        }
        "max" => {
            r#"The largest of its number arguments. To pass a list, expand it with `...`.

`max(1, 5, 3)` → `5` · `max([1, 5]...)` → `5`"#
        }
        "min" => {
            r#"The smallest of its number arguments. To pass a list, expand it with `...`.

`min(1, 5, 3)` → `1`"#
        }
        "parseint" => {
            r#"`parseint(string, base)`: parses a whole number written in any base from 2 to 62 (an optional leading `-` is allowed).

`parseint("ff", 16)` → `255` · `parseint("-101", 2)` → `-5`"#
        }
        "pow" => {
            r#"`pow(base, exponent)`: `base` raised to the power `exponent`.

`pow(2, 10)` → `1024`"#
        }
        "signum" => {
            r#"The sign of a number: `-1` for negative, `0` for zero, `1` for positive.

`signum(-7)` → `-1`"#
        }
        "sum" => {
            r#"The total of a list, tuple or set of numbers. An empty collection is an error, not `0`.

`sum([1, 2, 3.5])` → `6.5`"#
        }

        // Strings.
        "chomp" => {
            r#"Removes every line break (`\n` or `\r\n`) from the end of a string; other whitespace stays.

`chomp("hi\n\n")` → `"hi"`"#
        }
        "endswith" => {
            r#"`endswith(string, suffix)`: `true` when the string ends with `suffix`.

`endswith("hello", "lo")` → `true`"#
        }
        "format" => {
            r#"Builds a string from a printf-style spec. Verbs: `%s` string, `%d` integer (a fraction is an error), `%f` / `%.2f` decimal, `%t` bool, `%q` quoted string, `%v` any value (collections as JSON), `%#v` JSON, `%x` hex, `%%` a literal `%`; widths, `-` padding and argument indexes such as `%[2]s` work.

`format("%s has %d items (%.1f%%)", "x", 3, 12.345)` → `"x has 3 items (12.3%)"`"#
        }
        "formatlist" => {
            r#"`format` applied element by element: list arguments are walked in step (they must have equal lengths), single values are reused for every element; returns a list of strings.

`formatlist("web-%s", ["a", "b"])` → `["web-a", "web-b"]`"#
        }
        "indent" => {
            r#"`indent(spaces, string)`: puts `spaces` spaces in front of every line except the first, for pasting a multi-line string at an indented position.

`indent(2, "a\nb")` → `"a\n  b"`"#
        }
        "join" => {
            r#"`join(separator, list)`: concatenates a list of strings with `separator` between the elements.

`join(", ", ["a", "b"])` → `"a, b"`"#
        }
        "lower" => {
            r#"Converts every letter of a string to lower case.

`lower("ABC")` → `"abc"`"#
        }
        "regex" => {
            r#"`regex(pattern, string)`: the first match of an RE2 regular expression. With no capture groups it returns the matched text, with unnamed groups a list of the captures, with named groups (`(?P<name>…)`) an object. No match is an error: guard it with `can(...)` or use `regexall`.

`regex("[a-z]+(\\d+)", "abc123")` → `["123"]`"#
        }
        "regexall" => {
            r#"`regexall(pattern, string)`: every match of the regular expression, as a list whose elements have the shape `regex` would return; an empty list when nothing matches.

`regexall("\\d+", "a1b22")` → `["1", "22"]`"#
        }
        "replace" => {
            r#"`replace(string, search, replacement)`: replaces every occurrence of `search`. When `search` is wrapped in slashes it is a regular expression and `replacement` may use captures as `$1` or `${name}`.

`replace("a-b-c", "-", "_")` → `"a_b_c"` · `replace("v1.2.3", "/v(\\d+).*/", "major $1")` → `"major 1"`"#
        }
        "split" => {
            r#"`split(separator, string)`: cuts a string at every `separator`; empty pieces are kept.

`split(",", "a,b,,c")` → `["a", "b", "", "c"]`"#
        }
        "startswith" => {
            r#"`startswith(string, prefix)`: `true` when the string begins with `prefix`.

`startswith("hello", "he")` → `true`"#
        }
        "strcontains" => {
            r#"`strcontains(string, substr)`: `true` when `substr` occurs anywhere in the string.

`strcontains("hello", "ell")` → `true`"#
        }
        "strrev" => {
            r#"Reverses a string character by character (Unicode-aware, not byte-wise).

`strrev("abc")` → `"cba"`"#
        }
        "substr" => {
            r#"`substr(string, offset, length)`: part of a string, counted in characters. A negative `offset` counts from the end, a `length` of `-1` means "to the end", and a too-long `length` is clipped.

`substr("hello", 1, 3)` → `"ell"` · `substr("hello", -3, -1)` → `"llo"`"#
        }
        "title" => {
            r#"Capitalizes the first letter of every word; the other letters are left as they are.

`title("hello wORLD")` → `"Hello WORLD"`"#
        }
        "trim" => {
            r#"`trim(string, chars)`: strips from both ends every character that appears in `chars` (a set of characters, not a substring).

`trim("?!hi!?", "!?")` → `"hi"`"#
        }
        "trimprefix" => {
            r#"Removes a prefix from a string once, if it is there; otherwise returns the string unchanged.

`trimprefix("hellohello", "hello")` → `"hello"`"#
        }
        "trimspace" => {
            r#"Removes all leading and trailing whitespace (spaces, tabs, line breaks).

`trimspace("  hi\n")` → `"hi"`"#
        }
        "trimsuffix" => {
            r#"Removes a suffix from a string once, if it is there; otherwise returns the string unchanged.

`trimsuffix("file.txt", ".txt")` → `"file"`"#
        }
        "upper" => {
            r#"Converts every letter of a string to upper case.

`upper("abc")` → `"ABC"`"#
        }

        // Collections.
        "alltrue" => {
            r#"`true` when every element of a list or set of bools is `true`. An empty collection gives `true`.

`alltrue([true, false])` → `false`"#
        }
        "anytrue" => {
            r#"`true` when at least one element of a list or set of bools is `true`. An empty collection gives `false`.

`anytrue([false, true])` → `true`"#
        }
        "chunklist" => {
            r#"`chunklist(list, size)`: splits a list into consecutive lists of `size` elements; the last one may be shorter. A size of `0` yields the whole list as a single chunk.

`chunklist(["a", "b", "c"], 2)` → `[["a", "b"], ["c"]]`"#
        }
        "coalesce" => {
            r#"The first argument that is neither `null` nor an empty string (the arguments are converted to one type). It is an error if there is none.

`coalesce(null, "", "b")` → `"b"`"#
        }
        "coalescelist" => {
            r#"The first of its list or tuple arguments that has at least one element.

`coalescelist([], ["a"])` → `["a"]`"#
        }
        "compact" => {
            r#"Drops the empty strings and nulls from a list of strings.

`compact(["a", "", null, "b"])` → `["a", "b"]`"#
        }
        "concat" => {
            r#"Appends several lists or tuples into one, keeping their order.

`concat([1], [2, 3])` → `[1, 2, 3]`"#
        }
        "contains" => {
            r#"`contains(list, value)`: `true` when the list, tuple or set holds an element equal to `value` (no type conversion: `contains(["1"], 1)` is `false`).

`contains(["a", "b"], "b")` → `true`"#
        }
        "distinct" => {
            r#"Removes repeated elements from a list; the first occurrence of each value stays where it was.

`distinct(["b", "a", "b"])` → `["b", "a"]`"#
        }
        "element" => {
            r#"`element(list, index)`: the element at `index`. Unlike `list[index]`, the index wraps around (it is taken modulo the length) and a negative index counts from the end; an empty list is an error.

`element(["a", "b", "c"], 4)` → `"b"` · `element(["a", "b", "c"], -1)` → `"c"`"#
        }
        "flatten" => {
            r#"Replaces every nested list with its elements, at any depth, producing one flat list.

`flatten([["a"], [], ["b", ["c"]]])` → `["a", "b", "c"]`"#
        }
        "index" => {
            r#"`index(list, value)`: the 0-based position of the first element equal to `value`. A missing value is an error.

`index(["a", "b"], "b")` → `1`"#
        }
        "keys" => {
            r#"The keys of a map or object, as a list in sorted order.

`keys({ b = 1, a = 2 })` → `["a", "b"]`"#
        }
        "length" => {
            r#"The number of elements of a list, tuple, set, map or object, or the number of characters (not bytes) in a string. `null` is an error.

`length("héllo")` → `5`"#
        }
        "list" => {
            r#"Removed in Terraform 0.12 and kept only to fail with a helpful message: write a literal `[ ... ]` or `tolist([ ... ])` instead.

`list(1)` → error"#
        }
        "lookup" => {
            r#"`lookup(map, key, default)`: the value under `key` in a map or object, or `default` when the key is missing. Without `default` a missing key is an error; for optional fields `try(map.key, default)` works too.

`lookup({ a = 1 }, "b", 0)` → `0`"#
        }
        "map" => {
            r#"Removed in Terraform 0.12 and kept only to fail with a helpful message: write a literal `{ ... }` or `tomap({ ... })` instead.

`map("a", 1)` → error"#
        }
        "matchkeys" => {
            r#"`matchkeys(values, keys, searchset)`: the elements of `values` whose counterpart at the same position in `keys` is in `searchset`. `values` and `keys` must have the same length.

`matchkeys(["i-1", "i-2", "i-3"], ["us", "eu", "us"], ["us"])` → `["i-1", "i-3"]`"#
        }
        "merge" => {
            r#"Combines maps or objects into one; a key that appears in several arguments takes the value of the last one. The merge is shallow: a nested object is replaced, not merged. `null` arguments are skipped.

`merge({ a = 1, b = 2 }, { b = 3 })` → `{ a = 1, b = 3 }`"#
        }
        "one" => {
            r#"For a list, set or tuple of at most one element: that element, or `null` when it is empty. Two or more elements are an error.

`one(["a"])` → `"a"` · `one([])` → `null`"#
        }
        "range" => {
            r#"`range(end)`, `range(start, end)` or `range(start, end, step)`: numbers from `start` (default `0`) up to but not including `end`, by `step` (default `1`, may be negative). At most 1024 values.

`range(3)` → `[0, 1, 2]` · `range(1, 10, 3)` → `[1, 4, 7]`"#
        }
        "reverse" => {
            r#"The elements of a list or tuple in reverse order.

`reverse([1, 2, 3])` → `[3, 2, 1]`"#
        }
        "setintersection" => {
            r#"A set of the elements present in every argument (lists are converted to sets).

`setintersection(["a", "b"], ["b", "c"])` → `toset(["b"])`"#
        }
        "setproduct" => {
            r#"Every combination taking one element from each argument (the Cartesian product), as a list of lists.

`setproduct(["a", "b"], [1, 2])` → `[["a", 1], ["a", 2], ["b", 1], ["b", 2]]`"#
        }
        "setsubtract" => {
            r#"`setsubtract(a, b)`: a set of the elements of `a` that are not in `b`.

`setsubtract(["a", "b", "c"], ["b"])` → `toset(["a", "c"])`"#
        }
        "setunion" => {
            r#"A set of the elements present in any of the arguments.

`setunion(["a"], ["b", "a"])` → `toset(["a", "b"])`"#
        }
        "slice" => {
            r#"`slice(list, start, end)`: the elements from index `start` up to but not including `end`.

`slice(["a", "b", "c", "d"], 1, 3)` → `["b", "c"]`"#
        }
        "sort" => {
            r#"Sorts a list of strings lexicographically. Numbers are converted to strings first, so they sort as text; null elements are an error.

`sort(["b", "a"])` → `["a", "b"]` · `sort([3, 20, 1])` → `["1", "20", "3"]`"#
        }
        "transpose" => {
            r#"Inverts a map of lists of strings: each string becomes a key whose value is the sorted list of the original keys that listed it.

`transpose({ a = ["1", "2"], b = ["2"] })` → `{ "1" = ["a"], "2" = ["a", "b"] }`"#
        }
        "values" => {
            r#"The values of a map or object, as a list ordered by their (sorted) keys.

`values({ b = 2, a = 1 })` → `[1, 2]`"#
        }
        "zipmap" => {
            r#"`zipmap(keys, values)`: a map built from a list of keys and a list of values of the same length; when a key repeats, its last value wins.

`zipmap(["a", "b"], [1, 2])` → `{ a = 1, b = 2 }`"#
        }

        // Encoding.
        "base64decode" => {
            r#"Decodes standard Base64 (with padding) into a string. The decoded bytes must be valid UTF-8; for other character sets use `textdecodebase64`.

`base64decode("aGVsbG8=")` → `"hello"`"#
        }
        "base64encode" => {
            r#"Encodes the UTF-8 bytes of a string as standard Base64 with padding.

`base64encode("hello")` → `"aGVsbG8="`"#
        }
        "base64gzip" => {
            r#"Gzip-compresses a string and returns the compressed bytes as Base64, for fields that take compressed, encoded data.

`base64gzip("hello")` → `"H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA=="`"#
        }
        "csvdecode" => {
            r#"Parses CSV text whose first line names the columns; returns a list with one object per row, every value a string. Each row must have as many fields as the header.

`csvdecode("a,b\n1,2")` → `[{ a = "1", b = "2" }]`"#
        }
        "jsondecode" => {
            r#"Parses a JSON string: objects become objects, arrays become tuples, numbers keep their exact value.

`jsondecode("{\"a\":1}")` → `{ a = 1 }`"#
        }
        "jsonencode" => {
            r#"Serializes a value as compact JSON; the keys of maps and objects come out sorted.

`jsonencode({ b = [true], a = 1 })` → `"{\"a\":1,\"b\":[true]}"`"#
        }
        "textdecodebase64" => {
            r#"`textdecodebase64(string, encoding)`: decodes Base64 and reads the bytes in the named character encoding (such as `UTF-16LE` or `ISO-8859-1`), returning the text.

`textdecodebase64("aABpAA==", "UTF-16LE")` → `"hi"`"#
        }
        "textencodebase64" => {
            r#"`textencodebase64(string, encoding)`: encodes the text in the named character encoding (such as `UTF-16LE`) and returns the bytes as Base64.

`textencodebase64("hi", "UTF-16LE")` → `"aABpAA=="`"#
        }
        "urlencode" => {
            r#"Escapes a string for a URL query: a space becomes `+`, and every byte other than letters, digits and `-_.~` becomes `%XX` (UTF-8).

`urlencode("a b&c/é")` → `"a+b%26c%2F%C3%A9"`"#
        }
        "yamldecode" => {
            r#"Parses a single YAML document: mappings become objects, sequences become tuples. Several documents (`---`) are an error.

`yamldecode("a: 1\nb: [x]")` → `{ a = 1, b = ["x"] }`"#
        }
        "yamlencode" => {
            r#"Serializes a value as block-style YAML, with sorted keys and quoted strings.

`yamlencode({ a = 1 })` → `"\"a\": 1\n"`"#
        }

        // Hashes and crypto.
        "base64sha256" => {
            r#"The SHA-256 digest of a string's UTF-8 bytes, as Base64 of the raw 32 bytes (`sha256` gives hex instead).

`base64sha256("hello")` → `"LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ="`"#
        }
        "base64sha512" => {
            r#"The SHA-512 digest of a string's UTF-8 bytes, as Base64 of the raw 64 bytes (88 characters; `sha512` gives hex instead).

`length(base64sha512("hello"))` → `88`"#
        }
        "md5" => {
            r#"The MD5 digest of a string's UTF-8 bytes, as 32 lowercase hex digits.

`md5("hello")` → `"5d41402abc4b2a76b9719d911017c592"`"#
        }
        "rsadecrypt" => {
            r#"`rsadecrypt(ciphertext, privatekey)`: decrypts Base64-encoded RSA (PKCS #1 v1.5) ciphertext with a PEM-encoded RSA private key and returns the plaintext string.

`rsadecrypt(encrypted_b64, private_key_pem)` → the decrypted text"#
        }
        "sha1" => {
            r#"The SHA-1 digest of a string's UTF-8 bytes, as 40 lowercase hex digits.

`sha1("hello")` → `"aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d"`"#
        }
        "sha256" => {
            r#"The SHA-256 digest of a string's UTF-8 bytes, as 64 lowercase hex digits.

`sha256("hello")` → `"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"`"#
        }
        "sha512" => {
            r#"The SHA-512 digest of a string's UTF-8 bytes, as 128 lowercase hex digits.

`length(sha512("hello"))` → `128`"#
        }

        // Dates and times.
        "formatdate" => {
            r#"`formatdate(spec, timestamp)`: formats an RFC 3339 timestamp. Tokens include `YYYY`, `MM`, `MMM` (`Mar`), `DD`, `EEE` (`Tue`), `hh` (24-hour), `HH` (12-hour), `mm`, `ss`, `AA` (`PM`) and `ZZZ` (zone); text in single quotes is copied literally.

`formatdate("DD MMM YYYY hh:mm", "2024-03-05T14:07:00Z")` → `"05 Mar 2024 14:07"`"#
        }
        "timeadd" => {
            r#"`timeadd(timestamp, duration)`: adds a duration such as `"90m"`, `"1h30m"` or `"-24h"` (units `ns`, `us`, `ms`, `s`, `m`, `h`; no days) to an RFC 3339 timestamp.

`timeadd("2024-01-01T00:00:00Z", "90m")` → `"2024-01-01T01:30:00Z"`"#
        }
        "timecmp" => {
            r#"Compares two RFC 3339 timestamps as instants: `-1` if the first is earlier, `0` if they are the same moment (even in different zones), `1` if it is later.

`timecmp("2024-01-01T00:00:00Z", "2024-01-01T01:00:00+01:00")` → `0`"#
        }
        "timestamp" => {
            r#"The current time in UTC as an RFC 3339 string. function-hcl registers it (although its docs say otherwise); the value changes on every evaluation, so a resource body that uses it changes on every reconcile.

`timestamp()` → e.g. `"2024-03-05T14:07:00Z"`"#
        }

        // Networking.
        "cidrhost" => {
            r#"`cidrhost(prefix, hostnum)`: the address of host number `hostnum` in the network `prefix` (IPv4 or IPv6 CIDR). A negative number counts back from the end of the range.

`cidrhost("10.0.0.0/24", 5)` → `"10.0.0.5"` · `cidrhost("10.0.0.0/24", -2)` → `"10.0.0.254"`"#
        }
        "cidrnetmask" => {
            r#"The subnet mask of an IPv4 CIDR prefix, in dotted-decimal notation.

`cidrnetmask("10.0.0.0/16")` → `"255.255.0.0"`"#
        }
        "cidrsubnet" => {
            r#"`cidrsubnet(prefix, newbits, netnum)`: divides `prefix` into subnets whose prefix length is `newbits` longer and returns subnet number `netnum` (from 0; it must fit in `newbits` bits).

`cidrsubnet("10.0.0.0/16", 8, 2)` → `"10.0.2.0/24"`"#
        }
        "cidrsubnets" => {
            r#"`cidrsubnets(prefix, newbits...)`: allocates one subnet per `newbits` argument, consecutively and without overlap (each aligned to its own size), and returns their CIDR strings.

`cidrsubnets("10.0.0.0/16", 8, 8, 4)` → `["10.0.0.0/24", "10.0.1.0/24", "10.0.16.0/20"]`"#
        }

        // Type conversion.
        "tobool" => {
            r#"Converts `"true"` / `"false"` (or a bool) to a bool; `null` stays `null`, anything else is an error.

`tobool("true")` → `true`"#
        }
        "tolist" => {
            r#"Converts a tuple or set to a list, converting the elements to one common type (a set comes out in its own order).

`tolist(["a", 1])` → `["a", "1"]`"#
        }
        "tomap" => {
            r#"Converts an object to a map; all values must convert to one common type. Note that `matchLabels` of a `select` block rejects maps.

`tomap({ a = 1, b = "x" })` → `{ a = "1", b = "x" }`"#
        }
        "tonumber" => {
            r#"Converts a decimal string (or a number) to a number; `null` stays `null`. Other notations such as `"0x10"` are an error.

`tonumber("42")` → `42`"#
        }
        "toset" => {
            r#"Converts a list or tuple to a set: duplicates disappear and the order is lost (strings come out sorted).

`toset(["b", "a", "b"])` → `toset(["a", "b"])`"#
        }
        "tostring" => {
            r#"Converts a string, number or bool to a string; `null` stays `null`, collections are an error.

`tostring(5)` → `"5"`"#
        }

        // Error handling.
        "can" => {
            r#"Evaluates its argument and returns `true` if that succeeds, `false` if it fails; the value is discarded. It catches errors only: an argument that depends on an unknown value gives an unknown result, and references to names that do not exist are still fatal.

`can(tonumber("x"))` → `false`"#
        }
        "try" => {
            r#"Returns the first argument that evaluates without an error, trying them from left to right; it fails only when all of them fail. Like `can`, it does not skip unknown values: an unknown argument makes the result unknown. Use it for optional fields: `try(req.composite.spec.region, "us-east-1")`.

`try(tonumber("x"), 0)` → `0`"#
        }

        // function-hcl.
        "invoke" => {
            r#"`invoke(name, args)`: calls the user function `name` (a top-level `function` block) with an object of arguments keyed by `arg` name; arguments with a `default` may be left out, unknown keys are an error. `name` must be a constant string. The function sees only its arguments, its locals and the built-in functions, and calls nest at most 100 deep.

`invoke("double", { x = 2 })` → `4` (given a `function "double"` with `arg "x"` and `body = x * 2`)"#
        }
        _ => return None,
    })
}

/// What a block type is for (Markdown).
pub fn block_doc(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "locals" => {
            r#"Named values for the enclosing scope, written `name = expression` and referenced by bare name (no `local.` prefix). All `locals` blocks of one body form a single scope, in any order (cycles are errors). A local may not shadow a name from an outer scope (`req`, `self`, `each`, outer locals, function arguments). A local that fails to evaluate becomes unknown, which defers whatever uses it."#
        }
        "group" => {
            r#"`group`: no labels. Gathers blocks under a shared `condition` and shared `locals`. When the condition is `false`, or cannot be evaluated yet, nothing inside is processed. Holds `locals`, `group`, `resource`, `resources`, `composite`, `context` and `requirement` blocks."#
        }
        "resource" => {
            r#"`resource "NAME"`: one composed resource; the label is its resource name, unique in the composition. Inside, `self.name` is the label, `self.resource` the observed resource (null until it exists) and `self.connection` its observed connection details (Base64 strings). A `body` with unknown values or errors defers the resource (it is left out and reported in the `FullyResolved` condition), except that an incomplete body of a resource that already exists is a fatal error. Its `composite`, `ready` and `context` blocks run only when the body is complete."#
        }
        "resources" => {
            r#"`resources "BASENAME"`: a collection, one composed resource per element of `for_each`, each made from the single `template`. In `name` and in the template, `each.key` / `each.value` are the current key and element. `self.basename` is the label; `self.resources` / `self.connections` are always null in function-hcl, so read observed members from `req.resources.BASENAME`. An unusable `for_each` is a fatal error, not a deferral. Collection-level `composite` and `context` blocks run once, after the members."#
        }
        "template" => {
            r#"`template`: the shape of each member of the enclosing `resources` collection; exactly one per collection. Evaluated once per element with `each.key` / `each.value`; `self.name` is the member's generated name (`self.resource` and `self.connection` are always null here). There is no `condition`: filter the `for_each` value instead. A member whose body is incomplete is left out."#
        }
        "composite" => {
            r#"`composite "status"` or `composite "connection"`: writes to the composite resource. With `status` the body is merged into the XR's status; with `connection` it holds connection details whose values are Base64-encoded strings. Bodies of all such blocks are deep-merged and conflicting leaf values are an error. An incomplete body skips the block; a null body is ignored."#
        }
        "context" => {
            r#"`context`: no labels. Puts `value` under `key` in the pipeline context that later functions receive. The values of all `context` blocks are deep-merged (conflicting leaves are an error). An incomplete `value` skips the block; an unknown `key` is fatal."#
        }
        "ready" => {
            r#"`ready { value = "READY_TRUE" }`: no labels; only in `resource` and `template`. Sets the readiness of the enclosing resource to `READY_TRUE`, `READY_FALSE` or `READY_UNSPECIFIED` (the default, which lets Crossplane judge readiness itself). With several blocks the last wins; an incomplete value skips the block."#
        }
        "requirement" => {
            r#"`requirement "NAME"`: asks Crossplane for extra resources, top level or `group` only. Crossplane calls the function again with the matches in `req.extra_resources.NAME` (a list, or null when nothing matched). Exactly one `select` block; optional `condition` and `locals`. A selector that is not fully known yet defers the requirement."#
        }
        "select" => {
            r#"`select`: no labels. The selector of a `requirement`: the `apiVersion` and `kind` of the resources wanted, and exactly one of `matchName` (one resource by name) or `matchLabels` (all resources carrying these labels)."#
        }
        "function" => {
            r#"`function "NAME"`: a user function, top level only, called as `invoke("NAME", { x = ... })`. `arg` blocks declare its parameters and `body` is its result. The body sees only the arguments, the function's own `locals` and the built-in functions: no `req`, `self`, `each` or outer locals. Names must be identifiers; recursion is allowed up to 100 calls deep."#
        }
        "arg" => {
            r#"`arg "NAME"`: a parameter of the enclosing `function`, referenced by bare name in its body and locals. Optional `description` and constant `default`; an argument without a default must be passed to `invoke`."#
        }
        _ => return None,
    })
}

/// What an attribute of a block type is for (Markdown); `block` is `None` at the top level.
pub fn attribute_doc(block: Option<&str>, name: &str) -> Option<&'static str> {
    Some(match (block?, name) {
        ("group", "condition") => {
            r#"Optional bool. When `false`, nothing in the group is processed; when it cannot be evaluated yet (unknown values or errors), the group is skipped as incomplete. A non-bool value is an error."#
        }
        ("resource", "body") => {
            r#"Required. The composed resource's manifest: an object with `apiVersion`, `kind`, `metadata`, `spec`, … If it has unknown values or errors the resource is deferred, unless it already exists (then it is a fatal error, so that it is not deleted)."#
        }
        ("resource", "condition") => {
            r#"Optional bool, evaluated after the resource's `locals` (with `self.*` available). `false` leaves the resource out of the desired state; unknown values or errors defer it as incomplete. A duplicate resource name is an error even when the condition is `false`."#
        }
        ("resources", "condition") => {
            r#"Optional bool for the whole collection: `false` creates no members; unknown values or errors defer the collection. `each` is not available here."#
        }
        ("resources", "for_each") => {
            r#"Required. The list, tuple, set, map or object to iterate, one member per element. For a list `each.key` is the index; for a map or object it is the key (iteration order is not stable); for a set both `each.key` and `each.value` are the element. It must be fully known: an unknown or non-collection value is a fatal error."#
        }
        ("resources", "name") => {
            r#"Optional. Each member's resource name, evaluated per element with `each` (but without `self.name`); default `"${self.basename}-${each.key}"`. It must produce a string without conversion: `name = each.key` over a list fails because the key is a number."#
        }
        ("template", "body") => {
            r#"Required. The manifest of one collection member, evaluated for each element with `each.key` / `each.value`. A member whose body has unknown values or errors is left out."#
        }
        ("composite", "body") => {
            r#"Required. For `composite "status"`: an object merged into the composite's status. For `composite "connection"`: an object whose values are Base64-encoded strings (invalid Base64 drops the block with a warning). A null body is ignored; an incomplete one skips the block."#
        }
        ("context", "key") => {
            r#"Required string: the context key to set, such as `"apiextensions.crossplane.io/environment"`. It must be known when the block runs: an unknown or non-string key is a fatal error."#
        }
        ("context", "value") => {
            r#"Required. The value stored under `key`; objects written by several blocks are deep-merged. `null` is allowed. Unknown values or errors skip the block."#
        }
        ("ready", "value") => {
            r#"Required string: `"READY_TRUE"`, `"READY_FALSE"` or `"READY_UNSPECIFIED"`. Any other value is an error."#
        }
        ("requirement", "condition") => {
            r#"Optional bool. `false` leaves the requirement out; unknown values or errors defer it as incomplete."#
        }
        ("select", "apiVersion") => {
            r#"Required string: the API version of the resources wanted, such as `"v1"` or `"ec2.aws.upbound.io/v1beta1"`."#
        }
        ("select", "kind") => {
            r#"Required string: the kind of the resources wanted, such as `"ConfigMap"`."#
        }
        ("select", "matchName") => {
            r#"String: selects the single resource with this name. Set exactly one of `matchName` and `matchLabels`."#
        }
        ("select", "matchLabels") => {
            r#"Object of strings: selects every resource carrying all these labels. Must be an object (a `tomap(...)` map is rejected). Set exactly one of `matchName` and `matchLabels`."#
        }
        ("function", "description") => r#"Optional constant string describing the function."#,
        ("function", "body") => {
            r#"Required. The expression whose value `invoke` returns; it may refer only to the function's arguments and locals."#
        }
        ("arg", "description") => r#"Optional constant string describing the argument."#,
        ("arg", "default") => {
            r#"Optional constant value used when `invoke` does not pass this argument; it cannot refer to variables. Without a default the argument is required."#
        }
        _ => return None,
    })
}

/// A built-in function's parameters as written in its signature (`str string`, the variadic
/// one as `args... dynamic`).
pub fn parameters(f: &crate::eval::functions::Function) -> Vec<String> {
    let mut params: Vec<String> = f
        .params
        .iter()
        .map(|p| format!("{} {}", p.name, p.ty.friendly_name()))
        .collect();
    if let Some(v) = &f.var_param {
        params.push(format!("{}... {}", v.name, v.ty.friendly_name()));
    }
    params
}

/// A built-in function's signature: `upper(str string)`.
pub fn signature_text(name: &str) -> Option<String> {
    let table = super::builtins();
    let f = table.get(name)?;
    Some(format!("{}({})", f.name, parameters(f).join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::schema::{BodySchema, TOP_LEVEL, schema_for};

    #[test]
    fn every_builtin_and_invoke_has_a_doc() {
        let table = crate::eval::functions::builtins();
        let mut names: Vec<&str> = table.names().collect();
        names.push("invoke");
        let missing: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| function_doc(n).is_none())
            .collect();
        assert!(missing.is_empty(), "functions without docs: {missing:?}");
        for name in names {
            let doc = function_doc(name).unwrap();
            assert!(doc.contains(" → "), "{name}: no example line");
        }
        assert_eq!(function_doc("no_such_function"), None);
    }

    #[test]
    fn every_block_and_attribute_of_the_schema_has_a_doc() {
        fn walk(
            kind: Option<&'static str>,
            schema: &'static BodySchema,
            seen: &mut Vec<&'static str>,
            missing: &mut Vec<String>,
        ) {
            for (name, _) in schema.attributes {
                if attribute_doc(kind, name).is_none() {
                    missing.push(format!(
                        "attribute {name} of {}",
                        kind.unwrap_or("top level")
                    ));
                }
            }
            for b in schema.blocks {
                if seen.contains(&b.kind) {
                    continue;
                }
                seen.push(b.kind);
                if block_doc(b.kind).is_none() {
                    missing.push(format!("block {}", b.kind));
                }
                match schema_for(b.kind) {
                    Some(Some(child)) => walk(Some(b.kind), child, seen, missing),
                    Some(None) => {}
                    None => missing.push(format!("block {} has no schema", b.kind)),
                }
            }
        }
        let (mut seen, mut missing) = (Vec::new(), Vec::new());
        walk(None, &TOP_LEVEL, &mut seen, &mut missing);
        assert!(missing.is_empty(), "missing docs: {missing:?}");
        // The walk reaches every block type, nested ones included.
        for kind in ["template", "ready", "select", "arg", "locals"] {
            assert!(seen.contains(&kind), "{kind} not reached");
        }
        assert_eq!(block_doc("no_such_block"), None);
        assert_eq!(attribute_doc(None, "body"), None);
        assert_eq!(attribute_doc(Some("resource"), "no_such_attribute"), None);
    }
}
