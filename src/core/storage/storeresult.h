#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace Sandpiper {

// Why a storage call failed, worded for the user.
struct StoreError {
    enum class Kind {
        Unavailable,  // the database could not be opened or created; the next call tries again
        WriteFailed,  // read-only folder, full disk, I/O error: nothing was changed
        NotFound,     // no conversation, message or execution with that id
        InvalidInput, // an import file or an argument the store cannot accept
        Database,     // anything else SQLite reported
    };

    Kind kind = Kind::Database;
    QString message;
};

// A value or the reason there is none. The app keeps running on errors, so every storage call
// reports them here instead of throwing or logging only.
template<typename T> class [[nodiscard]] StoreResult
{
public:
    StoreResult(T value)
        : m_value(std::move(value))
    {}
    StoreResult(StoreError error)
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

    const StoreError &error() const { return m_error; }

private:
    std::optional<T> m_value;
    StoreError m_error;
};

template<> class [[nodiscard]] StoreResult<void>
{
public:
    StoreResult() = default;
    StoreResult(StoreError error)
        : m_ok(false)
        , m_error(std::move(error))
    {}

    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }

    const StoreError &error() const { return m_error; }

private:
    bool m_ok = true;
    StoreError m_error;
};

} // namespace Sandpiper
