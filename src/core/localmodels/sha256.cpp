#include "localmodels/sha256.h"

#include <QString>

#include <algorithm>

#include <openssl/evp.h>

namespace Sandpiper {

Sha256::Sha256()
    : m_context(EVP_MD_CTX_new())
{
    reset();
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(m_context);
}

void Sha256::reset()
{
    EVP_DigestInit_ex(m_context, EVP_sha256(), nullptr);
}

void Sha256::addData(QByteArrayView bytes)
{
    EVP_DigestUpdate(m_context, bytes.data(), size_t(bytes.size()));
}

QString Sha256::hex() const
{
    // Finished on a copy, so that this one goes on.
    EVP_MD_CTX *copy = EVP_MD_CTX_new();
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_MD_CTX_copy_ex(copy, m_context);
    EVP_DigestFinal_ex(copy, digest, &length);
    EVP_MD_CTX_free(copy);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex());
}

Sha256Thread::Sha256Thread()
{
    m_thread.setObjectName(QStringLiteral("sha256"));
    m_thread.start();
    m_worker.moveToThread(&m_thread);
}

Sha256Thread::~Sha256Thread()
{
    m_thread.quit();
    m_thread.wait();
}

void Sha256Thread::reset()
{
    QMetaObject::invokeMethod(&m_worker, [this] { m_hash.reset(); });
}

void Sha256Thread::addData(const QByteArray &bytes, qsizetype length)
{
    const qsizetype size = length < 0 ? bytes.size() : std::min(length, bytes.size());
    m_pending += size;
    QMetaObject::invokeMethod(&m_worker, [this, bytes, size] {
        m_hash.addData(QByteArrayView(bytes.constData(), size));
        m_pending -= size;
    });
}

QString Sha256Thread::hex()
{
    QString digest;
    QMetaObject::invokeMethod(
        &m_worker, [this, &digest] { digest = m_hash.hex(); }, Qt::BlockingQueuedConnection);
    return digest;
}

} // namespace Sandpiper
