#include "llm/apikeystore.h"

#include "logging.h"

#include <QCoreApplication>

#include <QCoroSignal>

#include <qt6keychain/keychain.h>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

const QString keychainService = QStringLiteral("sandpiper");

QString keychainKey(const QString &providerId)
{
    return QStringLiteral("provider/%1/api-key").arg(providerId);
}

QCoro::Task<ApiKeyStore::Lookup> readEntry(QString key)
{
    ApiKeyStore::Lookup lookup;
    auto *job = new QKeychain::ReadPasswordJob(keychainService);
    job->setAutoDelete(false);
    job->setKey(key);
    job->start();
    if (!co_await qCoro(job, &QKeychain::Job::finished, 5s)) {
        job->setAutoDelete(true); // it cleans up after itself if it ever answers
        qCInfo(lcAgent) << "the keychain did not answer";
        co_return lookup;
    }
    if (job->error() == QKeychain::NoError) {
        lookup.key = job->textData();
        lookup.source = QStringLiteral("keychain");
    } else if (job->error() != QKeychain::EntryNotFound) {
        qCInfo(lcAgent) << "no keychain:" << job->errorString();
    }
    job->deleteLater();
    co_return lookup;
}

QCoro::Task<QString> writeEntry(QString key, QString value)
{
    auto *job = new QKeychain::WritePasswordJob(keychainService);
    job->setAutoDelete(false);
    job->setKey(key);
    job->setTextData(value);
    job->start();
    if (!co_await qCoro(job, &QKeychain::Job::finished, 5s)) {
        job->setAutoDelete(true);
        co_return QCoreApplication::translate("Sandpiper::ApiKeyStore", "the keychain did not answer");
    }
    QString error;
    if (job->error() != QKeychain::NoError) {
        // Without a keychain service QtKeychain says only "Unknown error".
        const bool noService = job->error() == QKeychain::NoBackendAvailable || job->errorString().isEmpty() ||
                               job->errorString() == QLatin1String("Unknown error");
        error = noService
                    ? QCoreApplication::translate("Sandpiper::ApiKeyStore",
                                                  "no keychain service, such as GNOME Keyring or KWallet, answers")
                    : job->errorString();
        qCInfo(lcAgent) << "the keychain cannot keep the key:" << job->errorString();
    }
    job->deleteLater();
    co_return error;
}

} // namespace

QCoro::Task<ApiKeyStore::Lookup> ApiKeyStore::read(QString providerId, QString variable)
{
    Lookup lookup;
    // Tests and scripts name the key's variable; they never wait for a keychain.
    if (!variable.isEmpty() && qEnvironmentVariableIsSet(qPrintable(variable))) {
        lookup.key = qEnvironmentVariable(qPrintable(variable));
        lookup.source = QStringLiteral("environment:") + variable;
        co_return lookup;
    }
    co_return co_await readEntry(keychainKey(providerId));
}

QCoro::Task<QString> ApiKeyStore::write(QString providerId, QString key)
{
    return writeEntry(keychainKey(providerId), std::move(key));
}

QCoro::Task<ApiKeyStore::Lookup> ApiKeyStore::readSecret(QString name)
{
    return readEntry(QStringLiteral("secret/%1").arg(name));
}

QCoro::Task<QString> ApiKeyStore::writeSecret(QString name, QString value)
{
    return writeEntry(QStringLiteral("secret/%1").arg(name), std::move(value));
}

} // namespace Sandpiper
