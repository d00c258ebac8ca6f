//! Conversions at the boundary: JSON values (records, details) to Python objects, and the
//! library's [`sightline::Error`] to the package's typed exceptions (`sightline.errors`), whose
//! class is chosen by [`sightline::Error::kind`] and whose message is the library's own.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;

/// A JSON value as plain Python objects (dict, list, str, int, float, bool, None).
pub(crate) fn json_to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None(),
        J::Bool(b) => b.into_py_any(py)?,
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_py_any(py)?,
            (None, Some(u)) => u.into_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_py_any(py)?,
        },
        J::String(s) => s.into_py_any(py)?,
        J::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(json_to_py(py, x)?)?;
            }
            l.into_any().unbind()
        }
        J::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// A Python dict (or a JSON string) as a JSON value, through Python's `json` module.
pub(crate) fn py_to_json(py: Python<'_>, v: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let text: String = if let Ok(s) = v.extract::<String>() {
        s
    } else {
        py.import("json")?.call_method1("dumps", (v,))?.extract()?
    };
    serde_json::from_str(&text).map_err(|e| PyValueError::new_err(format!("not valid JSON: {e}")))
}

/// Python's hint for a library error: the argument that changes the outcome (the library's
/// messages speak of the library, as the CLI's `hint` names its flags).
fn hint(e: &sightline::Error) -> Option<&'static str> {
    match e {
        sightline::Error::Forbidden { .. } => {
            Some("pass deny_private=False to let this page reach private addresses")
        }
        _ => None,
    }
}

/// The exception for a library error: the class of its kind from `sightline.errors`, with
/// the library's message, and `kind`, `input` and (HTTP errors) `status` attributes.
pub(crate) fn to_pyerr(py: Python<'_>, e: &sightline::Error) -> PyErr {
    let status = match e {
        sightline::Error::Http { status, .. } => Some(*status),
        _ => None,
    };
    let message = match hint(e) {
        Some(h) => format!("{} ({h})", e.detail()),
        None => e.detail(),
    };
    let obj = error_object(py, e.kind(), &message, status).and_then(|obj| {
        // A wall: `BlockedError.wall`, the record's `wall` as a dict.
        if let sightline::Error::Blocked { wall, .. } = e {
            let v = serde_json::to_value(&**wall).unwrap_or(serde_json::Value::Null);
            obj.bind(py).setattr("wall", json_to_py(py, &v)?)?;
        }
        Ok(obj)
    });
    match obj {
        Ok(obj) => PyErr::from_value(obj.into_bound(py)),
        Err(err) => err,
    }
}

/// An error instance (not raised) for `kind`, as the batch results carry them.
pub(crate) fn error_object(
    py: Python<'_>,
    kind: &str,
    message: &str,
    status: Option<i64>,
) -> PyResult<Py<PyAny>> {
    let make = py.import("sightline.errors")?.getattr("_from_kind")?;
    Ok(make.call1((kind, message, status))?.unbind())
}

/// Raise a library error (for use in `map_err` with the GIL held).
pub(crate) fn err(e: sightline::Error) -> PyErr {
    Python::attach(|py| to_pyerr(py, &e))
}

/// A parameter error (bad algorithm name, bad params) as `sightline.InputError`.
pub(crate) fn input_err(message: String) -> PyErr {
    Python::attach(|py| match error_object(py, "input", &message, None) {
        Ok(obj) => PyErr::from_value(obj.into_bound(py)),
        Err(e) => e,
    })
}

/// Parse an algorithm name (None: the default).
pub(crate) fn algorithm(name: Option<&str>) -> PyResult<sightline::Algorithm> {
    match name {
        None => Ok(sightline::extract::DEFAULT_ALGORITHM),
        Some(n) => n.parse().map_err(input_err),
    }
}

/// A steering plan: `base` with the fields of a dict (or JSON text) over it, as `serve` takes
/// them; `storage_state` may also be the path of a Playwright storageState file.
pub(crate) fn steer(
    py: Python<'_>,
    base: &sightline::Steer,
    v: &Bound<'_, PyAny>,
) -> PyResult<sightline::Steer> {
    let serde_json::Value::Object(mut fields) = py_to_json(py, v)? else {
        return Err(input_err(
            "steer: expected a dict (or JSON text) of steering fields, such as {\"wait_for\": \"#main\"}".into(),
        ));
    };
    if let Some(serde_json::Value::String(path)) = fields.get("storage_state").cloned() {
        let state = sightline::render::steer::load_storage_state(std::path::Path::new(&path))
            .map_err(err)?;
        fields.insert(
            "storage_state".into(),
            serde_json::to_value(state).map_err(|e| input_err(e.to_string()))?,
        );
    }
    // A filter list has no JSON form: its path, loaded once for the plan.
    let block_list = match fields.remove("block_list") {
        Some(serde_json::Value::String(path)) => Some(
            sightline::render::steer::load_block_list(std::path::Path::new(&path)).map_err(err)?,
        ),
        Some(other) => {
            return Err(input_err(format!(
                "steer: block_list is the path of a filter list, not {other}"
            )))
        }
        None => None,
    };
    let mut plan = base.with_fields(&fields).map_err(input_err)?;
    if block_list.is_some() {
        plan.block_list = block_list;
    }
    Ok(plan)
}

/// Parameters from a dict or JSON string (None: the defaults).
pub(crate) fn params(py: Python<'_>, p: Option<&Bound<'_, PyAny>>) -> PyResult<sightline::Params> {
    match p {
        None => Ok(sightline::Params::default()),
        Some(p) => serde_json::from_value(py_to_json(py, p)?)
            .map_err(|e| input_err(format!("params: not valid parameters: {e}"))),
    }
}
