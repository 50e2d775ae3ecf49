//! What `fnhcl init --from-xrd` takes from a CompositeResourceDefinition: the XR's group,
//! kind and version, its required `spec` fields (each with a placeholder value of its type,
//! for the example XR) and its `status` fields (for the `composite status` block).

use serde_json::{Map, Value as Json};

/// The composite type a scaffold is for.
#[derive(Clone, Debug, PartialEq)]
pub struct Xr {
    /// `spec.group`.
    pub group: String,
    /// The served version (the referenceable one when marked).
    pub version: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// The example XR's `spec`: every required field, filled with a placeholder.
    pub spec: Json,
    /// The top-level `status` fields (name and a placeholder of their type), `conditions`
    /// left out (Crossplane owns it).
    pub status: Vec<(String, Json)>,
}

impl Xr {
    /// The scaffold without an XRD: an `XExample` with an optional `region`.
    pub fn example() -> Xr {
        Xr {
            group: "example.org".into(),
            version: "v1alpha1".into(),
            kind: "XExample".into(),
            spec: serde_json::json!({ "region": "eu-west-1" }),
            status: vec![("bucketArn".into(), Json::String(String::new()))],
        }
    }

    /// Reads an XRD (YAML text); the reason when it is not one.
    pub fn from_xrd(text: &str) -> Result<Xr, String> {
        let value: Json =
            yaml_serde::from_str(text).map_err(|e| format!("not a YAML document: {e}"))?;
        if value["kind"] != "CompositeResourceDefinition" {
            return Err(format!(
                "its kind is {}, not CompositeResourceDefinition",
                value["kind"]
            ));
        }
        let spec = &value["spec"];
        let text_of = |v: &Json| v.as_str().unwrap_or("").to_string();
        let (group, kind) = (text_of(&spec["group"]), text_of(&spec["names"]["kind"]));
        if group.is_empty() || kind.is_empty() {
            return Err("it has no `spec.group` or `spec.names.kind`".into());
        }
        let versions = spec["versions"].as_array().cloned().unwrap_or_default();
        let chosen = versions
            .iter()
            .find(|v| v["referenceable"] == true)
            .or_else(|| versions.iter().find(|v| v["served"] != false))
            .ok_or("it has no `spec.versions`")?;
        let schema = &chosen["schema"]["openAPIV3Schema"]["properties"];
        let status = schema["status"]["properties"]
            .as_object()
            .map(|fields| {
                fields
                    .iter()
                    .filter(|(name, _)| *name != "conditions")
                    .map(|(name, s)| (name.clone(), empty_of(s)))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Xr {
            group,
            version: text_of(&chosen["name"]),
            kind,
            spec: required_of(&schema["spec"]),
            status,
        })
    }
}

/// An object holding the schema's required properties, each with a placeholder.
fn required_of(schema: &Json) -> Json {
    let mut out = Map::new();
    for name in schema["required"].as_array().into_iter().flatten() {
        if let Some(name) = name.as_str() {
            out.insert(name.into(), placeholder(&schema["properties"][name]));
        }
    }
    Json::Object(out)
}

/// A value the schema accepts: its default, its first enum value, else one of its type.
fn placeholder(schema: &Json) -> Json {
    if let Some(default) = schema.get("default") {
        return default.clone();
    }
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    match schema["type"].as_str().unwrap_or("") {
        "integer" => Json::from(schema["minimum"].as_i64().unwrap_or(1).max(1)),
        "number" => Json::from(1),
        "boolean" => Json::Bool(true),
        "array" => Json::Array(vec![placeholder(&schema["items"])]),
        "object" => required_of(schema),
        _ => Json::String("example".into()),
    }
}

/// The empty value of a schema's type, what a status field holds before it is known.
fn empty_of(schema: &Json) -> Json {
    match schema["type"].as_str().unwrap_or("") {
        "integer" | "number" => Json::from(0),
        "boolean" => Json::Bool(false),
        "array" => Json::Array(Vec::new()),
        "object" => Json::Object(Map::new()),
        _ => Json::String(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::Xr;

    #[test]
    fn required_fields_get_placeholders_of_their_type() {
        let xr = Xr::from_xrd(
            "apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xnetworks.net.example.org}
spec:
  group: net.example.org
  names: {kind: XNetwork, plural: xnetworks}
  versions:
  - name: v1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [region, zones, size, tier]
            properties:
              region: {type: string}
              zones: {type: array, items: {type: string}}
              size: {type: integer, minimum: 3}
              tier: {type: string, enum: [small, large]}
              note: {type: string}
          status:
            type: object
            properties:
              vpcId: {type: string}
              ready: {type: boolean}
",
        )
        .unwrap();
        assert_eq!((xr.kind.as_str(), xr.version.as_str()), ("XNetwork", "v1"));
        assert_eq!(
            xr.spec,
            serde_json::json!({"region": "example", "zones": ["example"], "size": 3, "tier": "small"})
        );
        assert_eq!(xr.status.len(), 2);
    }
}
