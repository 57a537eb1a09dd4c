// The models a provider's server offers, and the local servers found silent.
#include "fakellmserver.h"
#include "testprofile.h"

#include <modellister.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>

#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestModelLister : public QObject
{
    Q_OBJECT

    TestProfile m_profile;
    std::unique_ptr<ModelLister> m_lister;
    QList<std::pair<QStringList, QString>> m_listed; // models, provider

    // llama.cpp, which needs no key, at BASEURL.
    ProviderConfig localServer(const QString &baseUrl) const
    {
        ProviderConfig provider = m_profile.settings()->provider(QStringLiteral("llamacpp"));
        provider.baseUrl = baseUrl;
        return provider;
    }

private Q_SLOTS:
    void init()
    {
        QCOMPARE(m_profile.open({QStringLiteral("sandbox/enabled=false")}), QString());
        m_lister = std::make_unique<ModelLister>(m_profile.sessions());
        m_listed.clear();
        connect(m_lister.get(), &ModelLister::listed, this,
                [this](const ModelList &list, const ProviderConfig &provider) {
                    m_listed.append({list.models, provider.id});
                });
    }

    void cleanup()
    {
        m_lister.reset();
        QVERIFY(m_profile.close());
    }

    void listsTheServersModelsWithTheKey()
    {
        FakeLlmServer server;
        server.setModels({QStringLiteral("alpha"), QStringLiteral("beta")});
        server.setRequiredApiKey(QStringLiteral("sk-models"));
        QVERIFY(server.listen());
        QCOMPARE(m_profile.set(server.providerSettings(QStringLiteral("alpha"))), QString());
        m_profile.sessions()->useApiKey(QStringLiteral("custom"), QStringLiteral("sk-models"));
        m_lister->list(m_profile.settings()->provider());
        QCOMPARE(m_lister->listedProvider(), QStringLiteral("custom"));
        QTRY_COMPARE(m_listed.size(), 1);
        QCOMPARE(m_listed.constFirst().first, (QStringList{QStringLiteral("alpha"), QStringLiteral("beta")}));
        QCOMPARE(m_listed.constFirst().second, QStringLiteral("custom"));
        QVERIFY(!m_lister->isSilent(server.baseUrl().toString()));
        QCOMPARE(m_lister->problemWith(m_profile.settings()->provider()), QString());
    }

    void aLocalServerThatDoesNotAnswerIsSilentUntilItDoes()
    {
        quint16 port = 0;
        QString baseUrl;
        {
            FakeLlmServer gone;
            QVERIFY(gone.listen());
            baseUrl = gone.baseUrl().toString();
            port = quint16(gone.baseUrl().port());
        }
        const ProviderConfig provider = localServer(baseUrl);
        m_lister->list(provider);
        QTRY_COMPARE(m_listed.size(), 1);
        QVERIFY(m_lister->isSilent(baseUrl));
        QCOMPARE(m_lister->problemWith(provider),
                 QStringLiteral("llama.cpp server does not answer at %1.").arg(baseUrl));

        FakeLlmServer started;
        QVERIFY(started.listen(port));
        m_lister->list(provider);
        QTRY_COMPARE(m_listed.size(), 2);
        QVERIFY(!m_lister->isSilent(baseUrl));
        QCOMPARE(m_lister->problemWith(provider), QString());
    }

    void anAnswerForAProviderNoLongerAskedIsDropped()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        QCOMPARE(m_profile.set(server.providerSettings(QStringLiteral("alpha"))), QString());
        const QString silent = QStringLiteral("http://127.0.0.1:9/v1");
        m_lister->list(localServer(silent));
        m_lister->list(m_profile.settings()->provider());
        QTRY_COMPARE(m_listed.size(), 1);
        QCOMPARE(m_listed.constFirst().second, QStringLiteral("custom"));
        QTest::qWait(300);
        QCOMPARE(m_listed.size(), 1);
        QVERIFY(!m_lister->isSilent(silent));
    }
};

QTEST_MAIN(TestModelLister)
#include "tst_modellister.moc"
