#include "mcp/mcpsecrets.h"

#include "llm/apikeystore.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace Sandpiper::McpSecrets {

namespace {

const QRegularExpression reference(QStringLiteral("\\$\\{(keychain|env):([^}]+)\\}"));

// Every text of CONFIG, for reading and for writing.
QList<QString *> textsOf(McpServerConfig &config)
{
    QList<QString *> texts{&config.command, &config.cwd, &config.url};
    for (QString &arg : config.args)
        texts << &arg;
    for (QString &value : config.env)
        texts << &value;
    for (QString &value : config.headers)
        texts << &value;
    return texts;
}

} // namespace

QStringList keychainNames(const McpServerConfig &config)
{
    McpServerConfig copy = config;
    QStringList names;
    for (const QString *text : textsOf(copy)) {
        for (auto it = reference.globalMatch(*text); it.hasNext();) {
            const auto match = it.next();
            if (match.captured(1) == QLatin1String("keychain") && !names.contains(match.captured(2).trimmed()))
                names << match.captured(2).trimmed();
        }
    }
    return names;
}

Expanded apply(McpServerConfig config, const QHash<QString, QString> &secrets)
{
    QStringList missing;
    for (QString *text : textsOf(config)) {
        QString result;
        qsizetype last = 0;
        for (auto it = reference.globalMatch(*text); it.hasNext();) {
            const auto match = it.next();
            const QString name = match.captured(2).trimmed();
            QString value;
            if (match.captured(1) == QLatin1String("keychain")) {
                if (!secrets.contains(name))
                    missing << QCoreApplication::translate("Sandpiper::McpSecrets", "the keychain has no secret \"%1\"")
                                   .arg(name);
                value = secrets.value(name);
            } else {
                if (!qEnvironmentVariableIsSet(qPrintable(name)))
                    missing << QCoreApplication::translate("Sandpiper::McpSecrets",
                                                           "the environment variable %1 is not set")
                                   .arg(name);
                value = qEnvironmentVariable(qPrintable(name));
            }
            result += QStringView(*text).mid(last, match.capturedStart() - last) + value;
            last = match.capturedEnd();
        }
        if (last > 0)
            *text = result + QStringView(*text).mid(last);
    }
    Expanded expanded{std::move(config), {}};
    if (!missing.isEmpty())
        expanded.error =
            QCoreApplication::translate("Sandpiper::McpSecrets", "Its settings refer to what is missing: %1.")
                .arg(missing.join(QStringLiteral("; ")));
    return expanded;
}

QCoro::Task<Expanded> expand(McpServerConfig config)
{
    QHash<QString, QString> secrets;
    for (const QString &name : keychainNames(config)) {
        const ApiKeyStore::Lookup lookup = co_await ApiKeyStore::readSecret(name);
        if (!lookup.source.isEmpty())
            secrets.insert(name, lookup.key);
    }
    co_return apply(std::move(config), secrets);
}

} // namespace Sandpiper::McpSecrets
