#pragma once

#include <QByteArray>
#include <QByteArrayView>

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

} // namespace Sandpiper
