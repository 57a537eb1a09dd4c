#include "storage/notebookexport.h"

#include "charts/chartspec.h"
#include "llm/modelimage.h"
#include "sandbox/sandboxfigure.h"
#include "sandbox/sandboxfolder.h"
#include "storage/conversationexport.h"
#include "tools/charttool.h"

#include <sandpiper/buildinfo.h>

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

namespace Sandpiper {

namespace {

// Jupyter's own way of writing a multi-line string: one element per line, each but the last
// ending in its newline, so diffs of exported notebooks read line by line.
QJsonArray lines(const QString &text)
{
    QJsonArray result;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype newline = text.indexOf(QLatin1Char('\n'), start);
        const qsizetype end = newline < 0 ? text.size() : newline + 1;
        result.append(text.mid(start, end - start));
        start = end;
    }
    return result;
}

QJsonObject stream(const QString &name, const QString &text)
{
    return {{QStringLiteral("output_type"), QStringLiteral("stream")},
            {QStringLiteral("name"), name},
            {QStringLiteral("text"), lines(text)}};
}

QJsonObject displayData(const QJsonObject &data)
{
    return {{QStringLiteral("output_type"), QStringLiteral("display_data")},
            {QStringLiteral("data"), data},
            {QStringLiteral("metadata"), QJsonObject()}};
}

QJsonObject plainText(const QString &text)
{
    return displayData({{QStringLiteral("text/plain"), lines(text)}});
}

// A table as Jupyter shows a DataFrame: an HTML table of the rows the chat had (escaped, since
// the cells come from the sandbox), with the text summary for viewers without HTML.
QJsonObject tableOutput(const DataTable &table)
{
    QString html = QStringLiteral("<table class=\"dataframe\">\n<thead><tr>");
    for (const QString &column : table.columns)
        html += QLatin1String("<th>") + column.toHtmlEscaped() + QLatin1String("</th>");
    html += QLatin1String("</tr></thead>\n<tbody>\n");
    for (int row = 0; row < table.rows.size(); ++row) {
        html += QLatin1String("<tr>");
        for (int column = 0; column < table.columns.size(); ++column) {
            const char *tag = column < table.indexColumns ? "th" : "td";
            html += QStringLiteral("<%1>%2</%1>").arg(QLatin1String(tag), table.cellText(row, column).toHtmlEscaped());
        }
        html += QLatin1String("</tr>\n");
    }
    html += QLatin1String("</tbody>\n</table>\n");
    if (table.totalRows > table.rows.size() || table.totalColumns > table.columns.size()) {
        html += QStringLiteral("<p>%1 rows × %2 columns (%3 rows exported)</p>\n")
                    .arg(table.totalRows)
                    .arg(table.totalColumns)
                    .arg(table.rows.size());
    }
    return displayData({{QStringLiteral("text/html"), lines(html)},
                        {QStringLiteral("text/plain"), lines(table.summary(int(table.rows.size())))}});
}

QJsonValue isoTime(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue(QJsonValue::Null);
}

class NotebookWriter
{
public:
    NotebookWriter(const ConversationSnapshot &snapshot, const QString &conversationFolder)
        : m_snapshot(snapshot)
        , m_folder(conversationFolder)
    {
        for (const StoredExecution &execution : snapshot.executions) {
            if (execution.origin == RunOrigin::Model && execution.call.isValid())
                m_executionsByCall.insert(execution.call, &execution);
        }
    }

    QJsonArray cells()
    {
        const Conversation &conversation = m_snapshot.conversation;
        QString heading =
            QLatin1String("# ") +
            (conversation.title.isEmpty() ? NotebookExport::tr("Untitled conversation") : conversation.title) +
            QLatin1Char('\n');
        if (const QString about = ConversationExport::aboutLine(conversation); !about.isEmpty())
            heading += QLatin1String("\n*") + about + QLatin1String("*\n");
        addMarkdown(heading);
        ConversationExport::forEachInOrder(
            m_snapshot, [this](const ChatMessage &message, const CallKey &answered) { addMessage(message, answered); },
            [this](const StoredExecution &execution) { addCode(execution); });
        return m_cells;
    }

    const NotebookExport::Summary &summary() const { return m_summary; }

private:
    void addMessage(const ChatMessage &message, const CallKey &answered)
    {
        QString text;
        QJsonObject attachments;
        switch (message.role) {
        case ChatMessage::Role::System:
            text = QLatin1String("**System**\n\n") + message.content;
            break;
        case ChatMessage::Role::User:
            text = QLatin1String("**You**\n\n") + message.content;
            attachments = imageAttachments(message, text);
            break;
        case ChatMessage::Role::Assistant:
            text = QLatin1String("**Assistant**\n\n");
            if (!message.reasoning.isEmpty()) {
                text += QLatin1String("<details><summary>Reasoning</summary>\n\n") + message.reasoning +
                        QLatin1String("\n\n</details>\n\n");
            }
            text += message.content;
            break;
        case ChatMessage::Role::Tool:
            // A run of code is its code cell; other tools show their answer.
            if (!m_executionsByCall.contains(answered)) {
                text = QLatin1String("**Result") +
                       (message.toolName.isEmpty() ? QString() : QLatin1String(" of ") + message.toolName) +
                       QLatin1String(":**\n\n") +
                       ConversationExport::fenced(message.content, QLatin1StringView("text"));
            }
            break;
        }
        if (const QString status = statusLine(message); !status.isEmpty())
            text += QLatin1String("\n\n") + status;
        // An assistant message that only called tools has nothing to say of its own.
        if (!text.trimmed().isEmpty() && text != QLatin1String("**Assistant**\n\n"))
            addMarkdown(text.trimmed() + QLatin1Char('\n'), attachments);
        for (int index = 0; index < message.toolCalls.size(); ++index) {
            const ToolCall &call = message.toolCalls.at(index);
            if (const StoredExecution *execution = m_executionsByCall.value(CallKey{message.id, index}))
                addCode(*execution);
            else
                addCall(call);
        }
    }

    static QString statusLine(const ChatMessage &message)
    {
        switch (message.status) {
        case ChatMessage::Status::Complete:
        case ChatMessage::Status::Streaming:
            return {};
        case ChatMessage::Status::Cancelled:
            return QStringLiteral("*Stopped by the user.*");
        case ChatMessage::Status::Interrupted:
            return QStringLiteral("*Interrupted: Sandpiper stopped while this was being written.*");
        case ChatMessage::Status::Error:
            return QLatin1String("*Error: ") + message.error + QLatin1Char('*');
        }
        return {};
    }

    // A call of another tool than Python: a chart's spec, or the call as it was made.
    void addCall(const ToolCall &call)
    {
        if (call.name == ChartTool::toolName()) {
            if (const auto spec = ChartSpec::fromToolArguments(call.arguments)) {
                addMarkdown(QLatin1String("**Chart:** ") +
                            (spec->title.isEmpty() ? QStringLiteral("Chart") : spec->title) + QLatin1String("\n\n") +
                            ConversationExport::fenced(
                                QString::fromUtf8(QJsonDocument(spec->toJson()).toJson(QJsonDocument::Indented)),
                                QLatin1StringView("json")));
                return;
            }
        }
        addMarkdown(QLatin1String("**Called ") + call.name + QLatin1String(":**\n\n") +
                    ConversationExport::fenced(call.arguments, QLatin1StringView("json")));
    }

    // The user's images as nbformat keeps them, in the cell's "attachments" (base64 under their
    // MIME type), each linked as "attachment:NAME" at the end of TEXT; one that is gone or no image
    // is said so in its place.
    QJsonObject imageAttachments(const ChatMessage &message, QString &text)
    {
        QJsonObject attachments;
        for (const QString &image : message.images) {
            QString problem;
            const auto original = ModelImage::readOriginal(m_folder, image, &problem);
            if (!original) {
                ++m_summary.missingImages;
                text += QLatin1String("\n\n*") +
                        NotebookExport::tr("(the image %1 could not be included: %2)").arg(image, problem) +
                        QLatin1Char('*');
                continue;
            }
            // A name that needs no escaping in a Markdown link, unique in the cell.
            static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
            const QString safe = QFileInfo(image).fileName().replace(unsafe, QStringLiteral("-"));
            QString name = safe;
            for (int copy = 2; attachments.contains(name); ++copy)
                name = QStringLiteral("%1-%2").arg(copy).arg(safe);
            attachments.insert(name,
                               QJsonObject{{original->mimeType, QString::fromLatin1(original->bytes.toBase64())}});
            text += QStringLiteral("\n\n![%1](attachment:%1)").arg(name);
            ++m_summary.images;
        }
        return attachments;
    }

    void addMarkdown(const QString &text, const QJsonObject &attachments = {})
    {
        ++m_summary.markdownCells;
        QJsonObject cell{{QStringLiteral("id"), nextId()},
                         {QStringLiteral("cell_type"), QStringLiteral("markdown")},
                         {QStringLiteral("metadata"), QJsonObject()},
                         {QStringLiteral("source"), lines(text)}};
        if (!attachments.isEmpty())
            cell.insert(QStringLiteral("attachments"), attachments);
        m_cells.append(cell);
    }

    void addCode(const StoredExecution &execution)
    {
        const ExecutionResult &result = execution.result;
        ++m_summary.codeCells;
        // Code that never reached a kernel has no execution count, as in Jupyter.
        const bool ran = result.status != ExecutionResult::Status::Unavailable;
        const QJsonValue count = ran ? QJsonValue(++m_executionCount) : QJsonValue(QJsonValue::Null);

        QJsonArray outputs;
        if (result.stateLost) {
            outputs.append(stream(QStringLiteral("stderr"), NotebookExport::tr("[Sandpiper] The kernel was replaced "
                                                                               "during this cell; its variables were "
                                                                               "lost.\n")));
        } else if (result.stateReset) {
            // The sandbox puts why the kernel was new into the message of a run that went well.
            const QString why = result.status == ExecutionResult::Status::Ok ? result.errorMessage : QString();
            outputs.append(stream(QStringLiteral("stderr"),
                                  NotebookExport::tr("[Sandpiper] This cell ran in a new kernel: earlier variables "
                                                     "were gone.") +
                                      (why.isEmpty() ? QString() : QLatin1Char(' ') + why) + QLatin1Char('\n')));
        }
        if (!result.standardOutput.isEmpty() || result.droppedStdoutBytes > 0)
            outputs.append(
                stream(QStringLiteral("stdout"), withDropped(result.standardOutput, result.droppedStdoutBytes)));
        if (!result.standardError.isEmpty() || result.droppedStderrBytes > 0)
            outputs.append(
                stream(QStringLiteral("stderr"), withDropped(result.standardError, result.droppedStderrBytes)));
        // What shows the last expression's value goes into its result, with the value's text, as
        // Jupyter writes it (a DataFrame once: its table and its text); the rest is displayed.
        const bool hasValue = !result.value.isEmpty();
        const ExecutionResult::ValueDisplays &ofValue = result.valueDisplays;
        QJsonObject valueData{{QStringLiteral("text/plain"), lines(result.value)}};
        auto displayed = [&](const QList<int> &valueIndices, int index, const QJsonObject &output) {
            QJsonObject data = output.value(QLatin1String("data")).toObject();
            data.remove(QLatin1String("text/plain")); // the value's own text stands for it
            // A figure that could not be included says so where it was; a second table of one
            // value (HTML with several) is shown on its own.
            const QStringList mimes = data.keys();
            const bool merge = hasValue && valueIndices.contains(index) && !mimes.isEmpty() &&
                               std::none_of(mimes.cbegin(), mimes.cend(),
                                            [&valueData](const QString &mime) { return valueData.contains(mime); });
            if (!merge) {
                outputs.append(output);
                return;
            }
            for (const QString &mime : mimes)
                valueData.insert(mime, data.value(mime));
        };
        for (int i = 0; i < result.figures.size(); ++i)
            displayed(ofValue.figures, i, figureOutput(result.figures.at(i)));
        if (result.figuresNotKept > 0)
            outputs.append(
                plainText(NotebookExport::tr("(%n more figure(s) were not kept)", nullptr, result.figuresNotKept)));
        for (int i = 0; i < result.tables.size(); ++i)
            displayed(ofValue.tables, i, tableOutput(result.tables.at(i)));
        for (int i = 0; i < result.markdown.size(); ++i)
            displayed(ofValue.markdown, i,
                      displayData({{QStringLiteral("text/markdown"), lines(result.markdown.at(i))}}));
        for (int i = 0; i < result.svg.size(); ++i)
            displayed(ofValue.svg, i, displayData({{QStringLiteral("image/svg+xml"), lines(result.svg.at(i))}}));
        if (hasValue) {
            outputs.append(QJsonObject{{QStringLiteral("output_type"), QStringLiteral("execute_result")},
                                       {QStringLiteral("execution_count"), count},
                                       {QStringLiteral("data"), valueData},
                                       {QStringLiteral("metadata"), QJsonObject()}});
        }
        QStringList sandpiperNotes = result.notes;
        sandpiperNotes << result.refused;
        if (!result.stopReason.isEmpty())
            sandpiperNotes << result.stopReason;
        if (!sandpiperNotes.isEmpty())
            outputs.append(stream(QStringLiteral("stderr"), QLatin1String("[Sandpiper] ") +
                                                                sandpiperNotes.join(QLatin1String("\n[Sandpiper] ")) +
                                                                QLatin1Char('\n')));
        if (const auto error = errorOutput(result))
            outputs.append(*error);

        QJsonObject sandpiper{{QStringLiteral("status"), ExecutionResult::statusName(result.status)},
                              {QStringLiteral("origin"), StoredExecution::originName(execution.origin)},
                              {QStringLiteral("duration_ms"), result.durationMs},
                              {QStringLiteral("created"), isoTime(execution.created)}};
        if (!execution.toolCallId.isEmpty())
            sandpiper.insert(QStringLiteral("tool_call_id"), execution.toolCallId);
        m_cells.append(QJsonObject{{QStringLiteral("id"), nextId()},
                                   {QStringLiteral("cell_type"), QStringLiteral("code")},
                                   {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("sandpiper"), sandpiper}}},
                                   {QStringLiteral("source"), lines(execution.code)},
                                   {QStringLiteral("outputs"), outputs},
                                   {QStringLiteral("execution_count"), count}});
    }

    static QString withDropped(QString text, qint64 dropped)
    {
        if (dropped <= 0)
            return text;
        if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n')))
            text += QLatin1Char('\n');
        return text + NotebookExport::tr("[… %1 more not kept]\n").arg(SandboxFolder::formatBytes(dropped));
    }

    static std::optional<QJsonObject> errorOutput(const ExecutionResult &result)
    {
        using Status = ExecutionResult::Status;
        if (result.status == Status::Ok)
            return std::nullopt;
        QString name = result.errorType;
        if (name.isEmpty()) {
            // Jupyter's names where there is one; what Sandpiper saw where there is none.
            switch (result.status) {
            case Status::Interrupted:
                name = QStringLiteral("KeyboardInterrupt");
                break;
            case Status::Crashed:
                name = QStringLiteral("KernelDied");
                break;
            case Status::Unavailable:
                name = QStringLiteral("SandboxUnavailable");
                break;
            case Status::Ok:
            case Status::Error:
                name = QStringLiteral("Error");
                break;
            }
        }
        QJsonArray traceback;
        for (const QString &line : result.traceback.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            traceback.append(line);
        if (traceback.isEmpty())
            traceback.append(result.errorMessage.isEmpty() ? name : name + QLatin1String(": ") + result.errorMessage);
        return QJsonObject{{QStringLiteral("output_type"), QStringLiteral("error")},
                           {QStringLiteral("ename"), name},
                           {QStringLiteral("evalue"), result.errorMessage},
                           {QStringLiteral("traceback"), traceback}};
    }

    // The PNG embedded as Jupyter stores it (base64), read at this moment from inside the
    // folder; a figure that is gone or refused is said so in its place.
    QJsonObject figureOutput(const QString &figure)
    {
        QString problem;
        const auto png = SandboxFigure::read(m_folder, figure, &problem);
        if (!png) {
            ++m_summary.missingFigures;
            return plainText(NotebookExport::tr("(the figure %1 could not be included: %2)").arg(figure, problem));
        }
        ++m_summary.figures;
        return displayData({{QStringLiteral("image/png"), QString::fromLatin1(png->toBase64())},
                            {QStringLiteral("text/plain"), QStringLiteral("<Figure %1>").arg(figure)}});
    }

    QString nextId() { return QStringLiteral("cell-%1").arg(++m_cellCount); }

    const ConversationSnapshot &m_snapshot;
    const SandboxFolder m_folder;
    QHash<CallKey, const StoredExecution *> m_executionsByCall;
    QJsonArray m_cells;
    NotebookExport::Summary m_summary;
    int m_cellCount = 0;
    int m_executionCount = 0;
};

} // namespace

QJsonObject NotebookExport::toJson(const ConversationSnapshot &snapshot, const QString &conversationFolder,
                                   const Environment &environment, Summary *summary)
{
    NotebookWriter writer(snapshot, conversationFolder);
    const QJsonArray cells = writer.cells();
    if (summary)
        *summary = writer.summary();

    QJsonObject languageInfo{
        {QStringLiteral("name"), QStringLiteral("python")},
        {QStringLiteral("file_extension"), QStringLiteral(".py")},
        {QStringLiteral("mimetype"), QStringLiteral("text/x-python")},
        {QStringLiteral("pygments_lexer"), QStringLiteral("ipython3")},
        {QStringLiteral("nbconvert_exporter"), QStringLiteral("python")},
        {QStringLiteral("codemirror_mode"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("ipython")}, {QStringLiteral("version"), 3}}}};
    QJsonObject sandpiper{{QStringLiteral("version"), QLatin1String(BuildInfo::version)},
                          {QStringLiteral("exported"), isoTime(QDateTime::currentDateTimeUtc())}};
    if (!environment.pythonVersion.isEmpty()) {
        languageInfo.insert(QStringLiteral("version"), environment.pythonVersion);
        sandpiper.insert(QStringLiteral("python_version"), environment.pythonVersion);
    }
    if (!environment.image.isEmpty())
        sandpiper.insert(QStringLiteral("sandbox_image"), environment.image);
    const Conversation &conversation = snapshot.conversation;
    if (!conversation.model.isEmpty())
        sandpiper.insert(QStringLiteral("model"), conversation.model);
    if (!conversation.provider.isEmpty())
        sandpiper.insert(QStringLiteral("provider"), conversation.provider);
    if (conversation.created.isValid())
        sandpiper.insert(QStringLiteral("conversation_created"), isoTime(conversation.created));

    QJsonObject metadata{{QStringLiteral("kernelspec"),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("python3")},
                                      {QStringLiteral("display_name"), QStringLiteral("Python 3 (ipykernel)")},
                                      {QStringLiteral("language"), QStringLiteral("python")}}},
                         {QStringLiteral("language_info"), languageInfo},
                         {QStringLiteral("sandpiper"), sandpiper}};
    if (!conversation.title.isEmpty())
        metadata.insert(QStringLiteral("title"), conversation.title);
    return {{QStringLiteral("nbformat"), formatMajor},
            {QStringLiteral("nbformat_minor"), formatMinor},
            {QStringLiteral("metadata"), metadata},
            {QStringLiteral("cells"), cells}};
}

StoreResult<NotebookExport::Summary> NotebookExport::write(const ConversationSnapshot &snapshot,
                                                           const QString &conversationFolder, const QString &filePath,
                                                           const Environment &environment)
{
    Summary summary;
    const QByteArray data =
        QJsonDocument(toJson(snapshot, conversationFolder, environment, &summary)).toJson(QJsonDocument::Indented);
    QSaveFile file(filePath);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        return StoreError{
            StoreError::Kind::WriteFailed,
            tr("Could not export the notebook to %1: %2.").arg(QDir::toNativeSeparators(filePath), file.errorString())};
    }
    return summary;
}

} // namespace Sandpiper
