#pragma once

#include <llm/chatclient.h>
#include <llm/providerconfig.h>

#include <QHash>
#include <QObject>

namespace Sandpiper {

class SessionManager;

// Asks a provider's server which models it offers, and keeps the local servers that did not
// answer: a server that needs no key but is silent is usually one not started yet.
class ModelLister : public QObject
{
    Q_OBJECT

public:
    explicit ModelLister(SessionManager *sessions, QObject *parent = nullptr);

    // Asks PROVIDER's server (with the key the sessions know for it); an answer that comes after
    // another provider was asked is dropped.
    void list(ProviderConfig provider);
    // Whose models were asked for last.
    QString listedProvider() const { return m_listedProvider; }
    // The server at BASEURL did not answer the model list the last time it was asked.
    bool isSilent(const QString &baseUrl) const { return m_silentServers.contains(baseUrl); }
    // Why PROVIDER cannot answer (see SessionManager::providerProblem), or that its server did
    // not answer the model list; empty when it can, as far as is known.
    QString problemWith(const ProviderConfig &provider) const;

Q_SIGNALS:
    // PROVIDER's server answered LIST (its error says why there are no models).
    void listed(const Sandpiper::ModelList &list, const Sandpiper::ProviderConfig &provider);

private:
    SessionManager *m_sessions;
    QString m_listedProvider;
    QHash<QString, QString> m_silentServers; // base URL, why
};

} // namespace Sandpiper
