#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace Sandpiper {

// A value or the reason there is none: what every call in core that can fail returns. The app
// keeps running on errors, so failures are reported here instead of thrown or only logged.
// E is what the caller gets to read about the failure: a sentence for the user (QString) unless
// the caller needs more (StoreError, ChartSpecError).
template<typename T, typename E = QString> class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    {}
    Result(E error)
        : m_error(std::move(error))
    {}

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T value() && { return std::move(*m_value); }
    const T &operator*() const & { return *m_value; }
    // By value, so that `for (auto &x : *store.messages(id))` keeps the list alive.
    T operator*() && { return std::move(*m_value); }
    const T *operator->() const { return &*m_value; }
    T *operator->() { return &*m_value; }

    const E &error() const { return m_error; }

private:
    std::optional<T> m_value;
    E m_error;
};

template<typename E> class [[nodiscard]] Result<void, E>
{
public:
    Result() = default;
    Result(E error)
        : m_ok(false)
        , m_error(std::move(error))
    {}

    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }

    const E &error() const { return m_error; }

private:
    bool m_ok = true;
    E m_error;
};

} // namespace Sandpiper
