#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QPromise>
#include <QThreadPool>

#include <QCoroSignal>
#include <QCoroTask>

#include <memory>
#include <type_traits>

namespace Sandpiper {

// The threads that wait on other programs for the runner (docker, llama-server --list-devices)
// and read model files: none of that may hold the GUI thread up, and a probe that hangs for its
// whole timeout must not take a thread of the global pool that draws figures.
QThreadPool *runnerThreads();

// Runs WORK on one of runnerThreads(); its result in a future that any number of coroutines may
// await (awaited()). WORK owns copies of what it needs: its caller may be gone when it ends.
template<typename Work> auto inBackground(Work work) -> QFuture<std::invoke_result_t<Work>>
{
    using Value = std::invoke_result_t<Work>;
    auto promise = std::make_shared<QPromise<Value>>();
    QFuture<Value> future = promise->future();
    promise->start();
    runnerThreads()->start([promise, work = std::move(work)]() mutable {
        if constexpr (std::is_void_v<Value>)
            work();
        else
            promise->addResult(work());
        promise->finish();
    });
    return future;
}

// FUTURE's value once it is there, without holding this thread up. (QCoro's own awaiter of a
// QFuture connects without a context object, which this build forbids.) The work behind FUTURE
// ends within its own timeouts.
template<typename Value> QCoro::Task<Value> awaited(QFuture<Value> future)
{
    if (!future.isFinished()) {
        // A future that ends before the wait begins is told to the watcher by an event: not missed.
        QFutureWatcher<Value> watcher;
        watcher.setFuture(future);
        co_await qCoro(&watcher, &QFutureWatcherBase::finished);
    }
    if constexpr (!std::is_void_v<Value>)
        co_return future.result();
}

} // namespace Sandpiper
