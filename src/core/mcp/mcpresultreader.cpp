#include "mcp/mcpresultreader.h"

#include "mcp/mcptoolname.h"
#include "tools/resultbudget.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>
#include <QUrl>

namespace Sandpiper::McpResultReader {

namespace {

const QString imagePrefix = QStringLiteral("Image shown to the user: ");
const QString filePrefix = QStringLiteral("File saved for the user: ");
const QString folderName = QStringLiteral("mcp");

QString extensionFor(const QString &mimeType)
{
    static const QHash<QString, QString> extensions = {
        {QStringLiteral("image/png"), QStringLiteral("png")},
        {QStringLiteral("image/jpeg"), QStringLiteral("jpg")},
        {QStringLiteral("image/gif"), QStringLiteral("gif")},
        {QStringLiteral("image/webp"), QStringLiteral("webp")},
        {QStringLiteral("image/svg+xml"), QStringLiteral("svg")},
        {QStringLiteral("audio/wav"), QStringLiteral("wav")},
        {QStringLiteral("audio/mpeg"), QStringLiteral("mp3")},
        {QStringLiteral("text/plain"), QStringLiteral("txt")},
        {QStringLiteral("text/markdown"), QStringLiteral("md")},
        {QStringLiteral("application/json"), QStringLiteral("json")},
        {QStringLiteral("text/html"), QStringLiteral("html")},
        {QStringLiteral("text/csv"), QStringLiteral("csv")},
    };
    return extensions.value(mimeType.section(QLatin1Char(';'), 0, 0).trimmed().toLower(), QStringLiteral("bin"));
}

// A file name made from what the server says (a URI's last part), reduced to harmless characters.
QString safeName(const QString &text)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString name = text;
    name.replace(unsafe, QStringLiteral("_"));
    while (name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    return name.left(60);
}

QString size(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

class Writer
{
public:
    Writer(QString folder, const McpToolInfo &tool)
        : m_folder(std::move(folder))
        , m_stem(QStringLiteral("%1-%2-%3")
                     .arg(McpToolName::serverPart(tool.server), safeName(tool.name),
                          QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"))))
    {}

    // The path of BYTES saved under the conversation's folder, relative to it; empty when it
    // could not be written.
    QString save(const QByteArray &bytes, const QString &hint, const QString &extension)
    {
        if (m_folder.isEmpty())
            return {};
        const QString base = hint.isEmpty() ? QStringLiteral("%1-%2").arg(m_stem).arg(++m_count)
                                            : QStringLiteral("%1-%2-%3").arg(m_stem).arg(++m_count).arg(hint);
        const QString relative =
            folderName + QLatin1Char('/') + base +
            (base.endsWith(QLatin1Char('.') + extension) ? QString() : QLatin1Char('.') + extension);
        QDir().mkpath(m_folder + QLatin1Char('/') + folderName);
        QFile file(m_folder + QLatin1Char('/') + relative);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return {};
        return relative;
    }

private:
    QString m_folder;
    QString m_stem;
    int m_count = 0;
};

} // namespace

ToolOutcome read(const McpReply &reply, const McpToolInfo &tool, const QString &folder, const ModelTextLimits &limits)
{
    ToolOutcome outcome;
    McpResult result;
    result.server = tool.server;
    result.tool = tool.name;
    if (!reply.ok()) {
        result.isError = true;
        result.text = reply.message;
        outcome.modelText = reply.kind == McpReply::Kind::Error
                                ? QStringLiteral("Error: the MCP server \"%1\" refused the call: %2 (code %3)")
                                      .arg(tool.server, reply.message)
                                      .arg(reply.code)
                                : QStringLiteral("Error: %1").arg(reply.message);
        outcome.result = result;
        return outcome;
    }
    const QJsonObject &answer = reply.result;
    result.isError = answer.value(QLatin1String("isError")).toBool();
    result.structured = answer.value(QLatin1String("structuredContent")).toObject();
    Writer writer(folder, tool);
    QStringList texts;
    QStringList lines; // about images and files, after the text
    for (const QJsonValue &value : answer.value(QLatin1String("content")).toArray()) {
        const QJsonObject block = value.toObject();
        const QString type = block.value(QLatin1String("type")).toString();
        const QString mime = block.value(QLatin1String("mimeType")).toString();
        if (type == QLatin1String("text")) {
            texts << block.value(QLatin1String("text")).toString();
        } else if (type == QLatin1String("image") || type == QLatin1String("audio")) {
            const QByteArray bytes = QByteArray::fromBase64(block.value(QLatin1String("data")).toString().toLatin1());
            if (bytes.isEmpty() || bytes.size() > maxImageBytes) {
                lines << QStringLiteral("[an %1 of %2 was not kept: it is empty or too large]")
                             .arg(type, size(bytes.size()));
                continue;
            }
            const QString path = writer.save(bytes, {}, extensionFor(mime));
            if (path.isEmpty()) {
                lines << QStringLiteral("[an %1 (%2) could not be saved for the user]").arg(type, mime);
            } else if (type == QLatin1String("image")) {
                result.images << path;
                lines << imagePrefix + QStringLiteral("%1 (%2, %3; in the Python sandbox: /mnt/data/%1)")
                                           .arg(path, mime, size(bytes.size()));
            } else {
                result.files << McpResultFile{QFileInfo(path).fileName(), {}, mime, {}, path, bytes.size()};
                lines << filePrefix + QStringLiteral("%1 (%2, %3)").arg(path, mime, size(bytes.size()));
            }
        } else if (type == QLatin1String("resource_link")) {
            McpResultFile link;
            link.uri = block.value(QLatin1String("uri")).toString();
            link.name = block.value(QLatin1String("name")).toString(link.uri);
            link.mimeType = mime;
            link.description = block.value(QLatin1String("description")).toString();
            link.size = qint64(block.value(QLatin1String("size")).toDouble(-1));
            result.files << link;
            lines << QStringLiteral("Resource link: %1 <%2>%3%4")
                         .arg(link.name, link.uri, mime.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(mime),
                              link.description.isEmpty() ? QString() : QStringLiteral(": ") + link.description);
        } else if (type == QLatin1String("resource")) {
            const QJsonObject resource = block.value(QLatin1String("resource")).toObject();
            McpResultFile file;
            file.uri = resource.value(QLatin1String("uri")).toString();
            file.mimeType = resource.value(QLatin1String("mimeType")).toString();
            file.name = QUrl(file.uri).fileName().isEmpty() ? file.uri : QUrl(file.uri).fileName();
            const bool isText = resource.contains(QLatin1String("text"));
            const QByteArray bytes =
                isText ? resource.value(QLatin1String("text")).toString().toUtf8()
                       : QByteArray::fromBase64(resource.value(QLatin1String("blob")).toString().toLatin1());
            file.size = bytes.size();
            if (bytes.size() <= maxFileBytes)
                file.path = writer.save(bytes, safeName(file.name), extensionFor(file.mimeType));
            result.files << file;
            QString line = file.path.isEmpty()
                               ? QStringLiteral("Embedded resource %1 (%2, %3), not saved")
                                     .arg(file.uri, file.mimeType, size(file.size))
                               : filePrefix + QStringLiteral("%1 (%2, %3, the resource %4)")
                                                  .arg(file.path, file.mimeType, size(file.size), file.uri);
            if (isText)
                line += QStringLiteral(". Its text:\n") +
                        ResultBudget::keepHeadAndTail(QString::fromUtf8(bytes), limits.valueChars);
            lines << line;
        } else {
            lines << QStringLiteral("[content of type \"%1\" is not shown]").arg(type);
        }
    }
    const QString text = texts.join(QLatin1Char('\n'));
    result.text = ResultBudget::keepHeadAndTail(text, int(shownChars));

    QStringList model;
    if (result.isError)
        model << QStringLiteral("Error: the tool reported a failure.");
    if (!text.isEmpty())
        model << ResultBudget::keepHeadAndTail(text, limits.streamChars);
    model << lines;
    if (!result.structured.isEmpty()) {
        const QString json = QString::fromUtf8(QJsonDocument(result.structured).toJson(QJsonDocument::Compact));
        // Tools are asked to repeat it as text; said once is enough.
        if (QJsonDocument::fromJson(text.toUtf8()).object() != result.structured)
            model << QStringLiteral("Structured content: ") + ResultBudget::keepHeadAndTail(json, limits.valueChars);
    }
    if (model.isEmpty())
        model << QStringLiteral("(the tool returned nothing)");
    outcome.modelText = model.join(QLatin1Char('\n'));
    outcome.success = !result.isError;
    outcome.result = result;
    return outcome;
}

McpResult fromModelText(const QString &text)
{
    McpResult result;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const bool image = line.startsWith(imagePrefix);
        if (!image && !line.startsWith(filePrefix))
            continue;
        const QString path = line.mid(image ? imagePrefix.size() : filePrefix.size()).section(QLatin1Char(' '), 0, 0);
        // Only what read() wrote: a file of the conversation's mcp folder.
        if (!path.startsWith(folderName + QLatin1Char('/')) || path.contains(QLatin1String("..")))
            continue;
        if (image)
            result.images << path;
        else
            result.files << McpResultFile{QFileInfo(path).fileName(), {}, {}, {}, path, -1};
    }
    return result;
}

} // namespace Sandpiper::McpResultReader
