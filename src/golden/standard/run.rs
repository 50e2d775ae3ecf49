//! Running one CompositionTest test: its inputs read (paths from the project root, kept inside
//! the tested tree), the XR patched, the render (non-HCL steps as `render` runs them), the
//! assertions, then each reconcile step: the previous render's desired resources observed as
//! Crossplane would observe them, a render, the step's assertions; `until: converged`
//! repeats a step until its output stops changing.

use super::check::check;
use super::project::project_root;
use super::spec::{Many, One, Step, TestSpec};
use crate::diff::diff_streams;
use crate::golden::case::{Failure, Outcome, Runner, quiet_io};
use crate::golden::confine::Confinement;
use crate::golden::discover::{Case, TestRef, source_of};
use crate::golden::expect_error::{Place, errors_shown, errors_text as errors, places};
use crate::golden::scenario::{next_observed, next_xr, split};
use crate::render::inputs::{self, Documents, Given, Request};
use crate::schema::Schemas;
use crate::source::{SourceFile, SourceMap};
use serde_json::{Map, Value as Json};
use std::path::{Path, PathBuf};

/// Runs one test of a CompositionTest file.
pub fn run(case: &Case, test: &TestRef, runner: Runner<'_>) -> Outcome {
    let mut map = SourceMap::new();
    let tests = match super::read_tests(&test.file, &mut map) {
        Ok(tests) => tests,
        Err(why) => return Outcome::Failed(Failure::Message(why)),
    };
    let Some((_, parsed)) = tests.into_iter().nth(test.index) else {
        return Outcome::Failed(Failure::Message(format!(
            "{}: the test is gone (the file changed while running)",
            test.file.display()
        )));
    };
    let spec = match parsed {
        Ok(spec) => spec,
        Err(why) => return Outcome::Failed(Failure::Message(why)),
    };
    // The file was the first added to the map.
    let Some(file) = map.files().first() else {
        return Outcome::Failed(Failure::Message("the test file is empty".into()));
    };
    let confine = Confinement {
        root: &case.root,
        allow: runner.allow_outside_paths,
    };
    match Test::prepare(case, &spec, &confine, runner) {
        Ok(prepared) => prepared.run(file, &spec),
        Err(why) => Outcome::Failed(Failure::Message(why)),
    }
}

/// A test ready to render: the request and the documents it starts from.
struct Test<'a> {
    /// `--lcov`/`--coverage-min`: where each render's coverage goes.
    coverage: Option<&'a crate::golden::Coverage>,
    request: Request,
    xr: Json,
    xrd: Option<Json>,
    functions: Option<Vec<Json>>,
    observed: Vec<Json>,
    extra: Vec<Json>,
    context: Vec<(String, Json)>,
    schemas: Option<Schemas>,
}

/// A render that failed (or whose output broke its schemas).
struct Failed {
    /// Why, as a failing test shows it.
    why: String,
    /// The errors alone.
    errors: String,
    /// Where the errors point.
    places: Vec<Place>,
    /// The render succeeded and its output broke the schemas (not what `expectError` means).
    rendered: bool,
}

/// Where a test's paths are read from, and the tree they must stay in.
struct Paths<'a> {
    base: PathBuf,
    confine: &'a Confinement<'a>,
}

impl Paths<'_> {
    /// A path of the test, resolved and checked.
    fn resolve(&self, path: &Path, what: &str) -> Result<PathBuf, String> {
        let full = self.base.join(path);
        self.confine.check(&full, what)?;
        Ok(full)
    }

    fn docs(&self, path: &Path, what: &str) -> Result<Vec<Json>, String> {
        let full = self.resolve(path, what)?;
        inputs::resource_docs(&full, what, &mut SourceMap::new()).map_err(|d| errors(&[*d]))
    }

    fn one(&self, one: &One, what: &str) -> Result<Json, String> {
        match one {
            One::Raw(doc) => Ok(doc.clone()),
            One::Path(path) => self
                .docs(path, what)?
                .into_iter()
                .next()
                .ok_or_else(|| format!("{what} `{}` holds no document", path.display())),
        }
    }

    fn many(&self, many: Option<&Many>, what: &str) -> Result<Vec<Json>, String> {
        match many {
            None => Ok(Vec::new()),
            Some(Many::Raw(docs)) => Ok(docs.clone()),
            Some(Many::Path(path)) => self.docs(path, what),
        }
    }
}

impl<'a> Test<'a> {
    fn prepare(
        case: &Case,
        spec: &TestSpec,
        confine: &Confinement<'_>,
        runner: Runner<'a>,
    ) -> Result<Test<'a>, String> {
        let dir = &case.dir;
        let paths = Paths {
            base: project_root(dir).unwrap_or_else(|| dir.clone()),
            confine,
        };
        let Some(xr) = &spec.xr else {
            return Err("the test gives no XR (`inputs.xr`, or `xr`/`xrPath`)".into());
        };
        let mut xr = paths.one(xr, "the XR")?;
        for (field, value) in &spec.add_fields {
            super::patch::add(&mut xr, field, value)?;
        }
        for field in &spec.remove_fields {
            super::patch::remove(&mut xr, field)?;
        }
        let xrd = match &spec.xrd {
            Some(xrd) => Some(paths.one(xrd, "the XRD")?),
            None => None,
        };
        let source = match &spec.composition {
            Some(path) => paths.resolve(path, "the composition")?,
            None => source_of(dir)?,
        };
        let args = [
            case.dir.join("xr.yaml").display().to_string(),
            source.display().to_string(),
        ];
        let mut request = (runner.parse)(&args).map_err(|d| errors(&[*d]))?;
        request.include_function_results = true;
        request.include_context = true;
        request.include_full_xr = true;
        request.timeout = format!("{}s", spec.timeout_seconds);
        request.coverage = runner.coverage.is_some();
        if let Some(path) = &spec.credentials {
            request.function_credentials = Some(paths.resolve(path, "the function credentials")?);
        }
        let functions = match &spec.functions {
            Some(functions) => Some(paths.many(Some(functions), "the Functions")?),
            None => None,
        };
        let schemas = if spec.validate {
            Some(schemas(&paths, xrd.as_ref(), runner.schemas)?)
        } else {
            runner.schemas.cloned()
        };
        Ok(Test {
            coverage: runner.coverage,
            request,
            xr,
            xrd,
            functions,
            observed: paths.many(spec.observed.as_ref(), "observed resources")?,
            extra: paths.many(spec.extra.as_ref(), "extra resources")?,
            context: spec.context.clone(),
            schemas,
        })
    }

    /// One render of the composition from this XR and these observed resources.
    fn render(&self, xr: &Json, observed: &[Json]) -> Result<Vec<Json>, String> {
        self.render_placed(xr, observed)
            .map_err(|failed| failed.why)
    }

    /// [`Test::render`], a failure with its errors and where they point (for `expectError`).
    fn render_placed(&self, xr: &Json, observed: &[Json]) -> Result<Vec<Json>, Failed> {
        let mut request = self.request.clone();
        request.context_data = self.context.clone();
        let given = Given {
            xr: Some(xr.clone()),
            xrd: self.xrd.clone(),
            functions: self.functions.clone(),
            observed: Some(observed.to_vec()),
            required: Some(self.extra.clone()),
        };
        let mut map = SourceMap::new();
        let mut diagnostics = Vec::new();
        // A test never reads standard input: its inputs are files and inline documents.
        let result = quiet_io(&mut std::io::empty(), |io| {
            inputs::documents_given(
                &mut map,
                &request,
                &given,
                self.schemas.as_ref(),
                io,
                &mut diagnostics,
            )
        });
        match result {
            Ok(Documents {
                documents,
                valid: true,
                coverage,
                ..
            }) => {
                if let Some(total) = self.coverage {
                    coverage.iter().for_each(|step| total.record(step));
                }
                Ok(documents)
            }
            Ok(Documents { valid: false, .. }) => Err(Failed {
                why: format!(
                    "the output breaks its schemas (validate):\n{}\n",
                    errors_shown(&diagnostics)
                ),
                errors: errors(&diagnostics),
                places: places(&map, &diagnostics),
                rendered: true,
            }),
            Err(_) => Err(Failed {
                why: format!("the render failed:\n{}\n", errors_shown(&diagnostics)),
                errors: errors(&diagnostics),
                places: places(&map, &diagnostics),
                rendered: false,
            }),
        }
    }

    fn run(mut self, file: &SourceFile, spec: &TestSpec) -> Outcome {
        let mut failures = Vec::new();
        let mut xr = self.xr.clone();
        let mut observed = self.observed.clone();
        if let Some(expected) = &spec.expect_error {
            return match self.render_placed(&xr, &observed) {
                Ok(_) => Outcome::Failed(Failure::Message(
                    "the render succeeded, but the test's expectError says it must fail".into(),
                )),
                Err(failed) if failed.rendered => Outcome::Failed(Failure::Message(failed.why)),
                Err(failed) => match expected.check(&failed.errors, &failed.places) {
                    Ok(()) => Outcome::Passed,
                    Err(why) => Outcome::Failed(Failure::Message(why)),
                },
            };
        }
        let mut last = match self.render(&xr, &observed) {
            Ok(documents) => documents,
            Err(why) => return Outcome::Failed(Failure::Message(why)),
        };
        failures.extend(check(file, "assertions", &spec.assertions, &last));
        for (i, step) in spec.steps.iter().enumerate() {
            let label = match &step.name {
                Some(name) => format!("step {} ({name})", i + 1),
                None => format!("step {}", i + 1),
            };
            if let Some(extra) = &step.extra {
                self.extra = match extra {
                    Many::Raw(docs) => docs.clone(),
                    Many::Path(_) => {
                        return Outcome::Failed(Failure::Message(format!(
                            "{label}: `extraResources.path` in a step is not supported; give `raw` documents"
                        )));
                    }
                };
            }
            let mut context: Map<String, Json> = self.context.iter().cloned().collect();
            context.extend(step.context.iter().cloned());
            self.context = context.into_iter().collect();
            match self.reconcile(&label, step, &mut xr, &mut observed, last) {
                Ok(documents) => last = documents,
                Err(failure) => {
                    return Outcome::Failed(with_earlier(failures, failure));
                }
            }
            failures.extend(check(file, &label, &step.assertions, &last));
        }
        if failures.is_empty() {
            Outcome::Passed
        } else {
            Outcome::Failed(Failure::Message(failures.join("")))
        }
    }

    /// One step: a reconcile from `last`, repeated until the output stops changing for
    /// `until: converged`; the step's final output.
    fn reconcile(
        &self,
        label: &str,
        step: &Step,
        xr: &mut Json,
        observed: &mut Vec<Json>,
        mut last: Vec<Json>,
    ) -> Result<Vec<Json>, Failure> {
        let max = step.until_converged.unwrap_or(1);
        for render in 1..=max {
            let output = split(&last);
            *observed = next_observed(xr, &output, observed, &step.observe);
            *xr = next_xr(xr, &output);
            let documents = self
                .render(xr, observed)
                .map_err(|why| Failure::Message(format!("{label}, render {render}: {why}")))?;
            if step.until_converged.is_none() || documents == last {
                return Ok(documents);
            }
            if render == max {
                return Err(Failure::Unsettled {
                    message: format!(
                        "{label}: the output still changes after {} (until: converged, maxSteps: {max}); the last two renders differ:\n",
                        crate::diagnostics::count(max, "render", "renders")
                    ),
                    before: if max == 1 {
                        "before the step".to_string()
                    } else {
                        format!("render {}", max - 1)
                    },
                    after: format!("render {max}"),
                    diff: diff_streams(&last, &documents, &[]),
                });
            }
            last = documents;
        }
        Ok(last)
    }
}

/// A failure with the assertion failures before it put first.
fn with_earlier(earlier: Vec<String>, failure: Failure) -> Failure {
    if earlier.is_empty() {
        return failure;
    }
    let before = earlier.join("");
    match failure {
        Failure::Message(why) => Failure::Message(format!("{before}{why}")),
        Failure::Unsettled {
            message,
            before: old,
            after,
            diff,
        } => Failure::Unsettled {
            message: format!("{before}{message}"),
            before: old,
            after,
            diff,
        },
        other @ Failure::Differs(_) => other,
    }
}

/// The schemas of `validate: true`: `--validate`'s, the XRD's, and the CRDs of the
/// `.crd-sources.yaml` or `.crds/` found from the project root up (each file kept inside the
/// tested tree).
fn schemas(
    paths: &Paths<'_>,
    xrd: Option<&Json>,
    given: Option<&Schemas>,
) -> Result<Schemas, String> {
    let mut schemas = given.cloned().unwrap_or_default();
    if let Some(xrd) = xrd {
        schemas
            .add_document("the XRD", xrd)
            .map_err(|e| e.to_string())?;
    }
    let found = crate::schema::sources::discover(&paths.base).map_err(|e| e.to_string())?;
    for file in found.map(|(_, files)| files).unwrap_or_default() {
        paths.confine.check(&file, "a schema file")?;
        let docs = inputs::yaml_docs(&file, &mut SourceMap::new()).map_err(|d| errors(&[*d]))?;
        for doc in docs {
            schemas
                .add_document(&file.display().to_string(), &doc)
                .map_err(|e| e.to_string())?;
        }
    }
    if schemas.is_empty() {
        return Err("`validate: true`, but there are no schemas: give the XRD (`patches.xrd` or `xrdPath`), put CRDs in a `.crds/` folder of the project, or pass --validate".into());
    }
    Ok(schemas)
}
