#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QObject>
#include <QThread>

#include <atomic>

struct evp_md_ctx_st;

namespace Sandpiper {

// SHA-256 by OpenSSL's libcrypto, which uses the processor's SHA instructions where there are:
// a model of gigabytes is checked while it downloads at the network's speed, where
// QCryptographicHash's portable code would be the slowest part (about a tenth as fast).
class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void reset();
    void addData(QByteArrayView bytes);
    // The digest of what was added so far, as lower-case hex; more may be added after.
    QString hex() const;

private:
    evp_md_ctx_st *m_context;
};

// A Sha256 fed in order on a thread of its own, so that hashing a download runs beside receiving
// and writing it instead of after them (on a machine with a core to spare it costs the download
// nothing). The bytes are handed over, not copied.
class Sha256Thread
{
public:
    Sha256Thread();
    ~Sha256Thread();

    void reset();
    // The first LENGTH bytes of BYTES (all of them when LENGTH is negative). BYTES stays shared
    // until they are hashed: a buffer the giver uses again is free once isDetached() says so.
    void addData(const QByteArray &bytes, qsizetype length = -1);
    // Waits until every byte given is hashed.
    QString hex();
    // Bytes given and not hashed yet: the giver waits while too many are.
    qint64 pending() const { return m_pending.load(); }

private:
    QThread m_thread;
    QObject m_worker;
    Sha256 m_hash; // used on m_thread alone
    std::atomic<qint64> m_pending{0};
};

} // namespace Sandpiper
