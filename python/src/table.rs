//! `Table`: a column table (one Arrow record batch) that crosses to Python through the Arrow
//! C data interface (`__arrow_c_stream__`, `__arrow_c_array__`), so pyarrow, polars, pandas
//! and DuckDB read it without copying; `to_pandas()`, `to_polars()` and `to_arrow()` import
//! their library only when called, and `to_pydict()` needs none.

use std::sync::Arc;

use arrow_array::ffi::{to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{
    Array, ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, RecordBatchIterator,
    StringArray, StructArray,
};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PyList};

use sightline::scores::{NodeScores, Values};

/// A table of columns, one row per node. Readable by pyarrow (`pyarrow.table(t)`), polars
/// (`polars.DataFrame(t)`) and any library of the Arrow PyCapsule interface.
#[pyclass(module = "sightline", frozen)]
pub struct Table {
    batch: RecordBatch,
}

fn arrow_err(e: ArrowError) -> PyErr {
    PyValueError::new_err(format!("arrow: {e}"))
}

impl Table {
    /// A table from named columns of equal length.
    pub(crate) fn from_columns(cols: Vec<(&str, ArrayRef)>) -> PyResult<Table> {
        let fields: Vec<Field> = cols
            .iter()
            .map(|(n, a)| {
                Field::new(
                    *n,
                    a.data_type().clone(),
                    a.null_count() > 0 || matches!(a.data_type(), DataType::Utf8),
                )
            })
            .collect();
        let schema = Arc::new(Schema::new(fields));
        let batch = RecordBatch::try_new(schema, cols.into_iter().map(|(_, a)| a).collect())
            .map_err(arrow_err)?;
        Ok(Table { batch })
    }

    /// A table of per-node scores, one Arrow column per library column.
    pub(crate) fn from_scores(s: &NodeScores) -> PyResult<Table> {
        let cols = s
            .columns
            .iter()
            .map(|c| {
                let a = match &c.values {
                    Values::F64(v) => floats(v.iter().copied()),
                    Values::I64(v) => ints(v.iter().copied()),
                    Values::Bool(v) => bools(v.iter().copied()),
                    Values::Str(v) => strings(v.iter().map(Option::as_deref)),
                };
                (c.name, a)
            })
            .collect();
        Table::from_columns(cols)
    }
}

// Columns from values; `None` (a value the row does not have) is null, never 0 or "".

/// A float column.
pub(crate) fn floats(v: impl IntoIterator<Item = Option<f64>>) -> ArrayRef {
    Arc::new(Float64Array::from_iter(v))
}

/// An integer column.
pub(crate) fn ints(v: impl IntoIterator<Item = Option<i64>>) -> ArrayRef {
    Arc::new(Int64Array::from_iter(v))
}

/// A boolean column (every row has its value).
pub(crate) fn bools(v: impl IntoIterator<Item = bool>) -> ArrayRef {
    Arc::new(BooleanArray::from_iter(v.into_iter().map(Some)))
}

/// A text column.
pub(crate) fn strings<S: AsRef<str>>(v: impl IntoIterator<Item = Option<S>>) -> ArrayRef {
    Arc::new(StringArray::from_iter(v))
}

#[pymethods]
impl Table {
    /// Number of rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }
    fn __len__(&self) -> usize {
        self.batch.num_rows()
    }
    /// The column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.batch
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }
    fn __repr__(&self) -> String {
        format!(
            "<sightline.Table {} rows: {}>",
            self.batch.num_rows(),
            self.column_names().join(", ")
        )
    }

    /// The Arrow C stream of the table (one batch), for `pyarrow.table(t)`,
    /// `polars.DataFrame(t)` and the like. `requested_schema` is ignored (the columns are
    /// exported as they are).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let schema = self.batch.schema();
        let reader = RecordBatchIterator::new(vec![Ok(self.batch.clone())], schema);
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// The table as one Arrow struct array: `(schema capsule, array capsule)`.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let s = StructArray::from(self.batch.clone());
        let (array, schema): (FFI_ArrowArray, FFI_ArrowSchema) =
            to_ffi(&s.to_data()).map_err(arrow_err)?;
        Ok((
            PyCapsule::new_with_value(py, schema, c"arrow_schema")?,
            PyCapsule::new_with_value(py, array, c"arrow_array")?,
        ))
    }

    /// The columns as a dict of lists (no dependency).
    fn to_pydict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (f, col) in self
            .batch
            .schema()
            .fields()
            .iter()
            .zip(self.batch.columns())
        {
            let list = column_to_list(py, col)?;
            d.set_item(f.name(), list)?;
        }
        Ok(d)
    }

    /// A `pyarrow.Table` (needs pyarrow).
    fn to_arrow<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let pa = import(slf.py(), "pyarrow", "to_arrow")?;
        pa.call_method1("table", (slf,))
    }

    /// A `pandas.DataFrame` (needs pandas; through pyarrow when it is installed).
    fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let pd = import(py, "pandas", "to_pandas")?;
        if let Ok(pa) = py.import("pyarrow") {
            return pa.call_method1("table", (slf,))?.call_method0("to_pandas");
        }
        pd.call_method1("DataFrame", (slf.get().to_pydict(py)?,))
    }

    /// A `polars.DataFrame` (needs polars).
    fn to_polars<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let pl = import(slf.py(), "polars", "to_polars")?;
        pl.call_method1("DataFrame", (slf,))
    }
}

fn import<'py>(py: Python<'py>, module: &str, what: &str) -> PyResult<Bound<'py, PyModule>> {
    py.import(module).map_err(|_| {
        pyo3::exceptions::PyImportError::new_err(format!(
            "Table.{what}() needs {module}: pip install {module}"
        ))
    })
}

fn column_to_list<'py>(py: Python<'py>, col: &ArrayRef) -> PyResult<Bound<'py, PyList>> {
    let any = col.as_any();
    let list = PyList::empty(py);
    for i in 0..col.len() {
        if col.is_null(i) {
            list.append(py.None())?;
        } else if let Some(a) = any.downcast_ref::<Float64Array>() {
            list.append(a.value(i))?;
        } else if let Some(a) = any.downcast_ref::<Int64Array>() {
            list.append(a.value(i))?;
        } else if let Some(a) = any.downcast_ref::<BooleanArray>() {
            list.append(a.value(i))?;
        } else if let Some(a) = any.downcast_ref::<StringArray>() {
            list.append(a.value(i))?;
        } else {
            return Err(PyValueError::new_err(format!(
                "unsupported column type {}",
                col.data_type()
            )));
        }
    }
    Ok(list)
}
