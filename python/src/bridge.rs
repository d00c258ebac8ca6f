//! Between tokio and Python: the runtime every future of the module runs on, and the two ways
//! one operation's future is offered to Python. A sync method passes it to [`wait`] (run on
//! the runtime with the GIL released; Ctrl-C aborts it), its async twin passes the same
//! future to [`awaitable`] (an asyncio awaitable through pyo3-async-runtimes, usable inside a
//! running loop such as Jupyter's).

use std::future::Future;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The tokio runtime every Rust future of this module runs on (pyo3-async-runtimes' own, so
/// the sync and the async calls share one).
pub(crate) fn runtime() -> &'static tokio::runtime::Runtime {
    pyo3_async_runtimes::tokio::get_runtime()
}

/// The sync form of an operation: run `fut` on the runtime with the GIL released, waking every
/// 100 ms to let Python handle signals: a Ctrl-C aborts the task (dropping the future, which
/// closes its tab) and raises `KeyboardInterrupt`.
pub(crate) fn wait<T: Send + 'static>(
    py: Python<'_>,
    fut: impl Future<Output = PyResult<T>> + Send + 'static,
) -> PyResult<T> {
    let mut handle = runtime().spawn(fut);
    loop {
        let done = py.detach(|| {
            runtime().block_on(async {
                tokio::time::timeout(Duration::from_millis(100), &mut handle)
                    .await
                    .ok()
            })
        });
        match done {
            Some(Ok(v)) => return v,
            Some(Err(e)) if e.is_panic() => {
                return Err(PyRuntimeError::new_err(format!("sightline panicked: {e}")))
            }
            Some(Err(e)) => return Err(PyRuntimeError::new_err(format!("the task ended: {e}"))),
            None => {
                if let Err(e) = py.check_signals() {
                    handle.abort();
                    return Err(e);
                }
            }
        }
    }
}

/// The async form of an operation: `fut` as an asyncio awaitable (cancelling it drops the
/// future).
pub(crate) fn awaitable<'py, T>(
    py: Python<'py>,
    fut: impl Future<Output = PyResult<T>> + Send + 'static,
) -> PyResult<Bound<'py, PyAny>>
where
    T: for<'a> IntoPyObject<'a> + Send + 'static,
{
    pyo3_async_runtimes::tokio::future_into_py(py, fut)
}
