#include "agent/attachmentpreparer.h"

#include "agent/attachmentdescriber.h"
#include "llm/chatclient.h"
#include "llm/contextbudget.h"
#include "llm/modelimage.h"
#include "sandbox/sandboxfolder.h"
#include "sandbox/sandboxsession.h"

#include <QPointer>
#include <QRegularExpression>

namespace Sandpiper {

namespace {

// What servers say when a request has images the model cannot see: llama.cpp "image input is not
// supported - hint: ... provide the mmproj", OpenAI "image_url is only supported by certain
// models", vLLM "... is not a multimodal model".
bool refusesImages(const ChatError &error)
{
    if (error.kind != ChatError::Kind::BadRequest && error.kind != ChatError::Kind::Server)
        return false;
    static const QRegularExpression words(QStringLiteral("image|vision|mmproj|multimodal|modalit"),
                                          QRegularExpression::CaseInsensitiveOption);
    return words.match(error.message).hasMatch();
}

} // namespace

AttachmentPreparer::AttachmentPreparer(QString dataDirectory, int imageMaxSide, SandboxSession *sandbox,
                                       ContextBudget *budget, QObject *parent)
    : QObject(parent)
    , m_dataDirectory(std::move(dataDirectory))
    , m_imageMaxSide(imageMaxSide)
    , m_sandbox(sandbox)
    , m_budget(budget)
{}

QString AttachmentPreparer::imageUrl(const QString &name, QString *error)
{
    if (const auto known = m_imageUrls.constFind(name); known != m_imageUrls.cend())
        return *known;
    const QString url = ModelImage::dataUrl(SandboxFolder(m_dataDirectory), name, m_imageMaxSide, error);
    if (!url.isEmpty())
        m_imageUrls.insert(name, url);
    return url;
}

QCoro::Task<QString> AttachmentPreparer::imagesRefusal(QString model, QStringList images)
{
    QPointer<AttachmentPreparer> self(this);
    const std::optional<bool> accepted = co_await m_budget->acceptsImages(model);
    if (!self)
        co_return {};
    if (accepted == false) {
        co_return tr("The model “%1” does not take images, so the message was not sent. Choose a model with vision, "
                     "or, if this one has it, say so in Settings → Provider → Images. Your text and the images are "
                     "back in the message box; the images are in /mnt/data for the code either way.")
            .arg(model);
    }
    for (const QString &name : std::as_const(images)) {
        QString error;
        if (imageUrl(name, &error).isEmpty())
            co_return tr("%1 The message was not sent: remove that image and send again.").arg(error);
    }
    co_return {};
}

QCoro::Task<ChatMessage> AttachmentPreparer::attach(ChatMessage user, QStringList attachments, QStringList images)
{
    // The files show beside the user's words; what the model is told about them goes apart. The
    // images are files of the folder too: the model learns their names for its code.
    const SandboxFolder folder(m_dataDirectory);
    for (const QString &name : std::as_const(attachments))
        user.attachments.append({name, folder.fileSize(name)});
    QStringList described = attachments;
    for (const QString &image : std::as_const(images)) {
        if (!described.contains(image))
            described << image;
    }
    if (!described.isEmpty())
        user.attachmentNote = co_await describe(described);
    co_return user;
}

// What the model is told about the files that come with a message: from the sandbox, which reads
// spreadsheets, PDFs and documents safely; from the host (name, size, type) when it cannot.
QCoro::Task<QString> AttachmentPreparer::describe(QStringList names)
{
    QPointer<AttachmentPreparer> self(this);
    if (m_sandbox) {
        const ExecutionResult described = co_await m_sandbox->describeFiles(names);
        if (!self)
            co_return {};
        if (described.status == ExecutionResult::Status::Ok && !described.value.isEmpty())
            co_return described.value;
    }
    QStringList lines;
    for (const QString &name : std::as_const(names))
        lines << AttachmentDescriber::hostDescription(m_dataDirectory, name);
    co_return lines.join(QLatin1Char('\n'));
}

QList<ChatMessage> AttachmentPreparer::withImages(QList<ChatMessage> messages, const QString &model)
{
    // A model known to take no images gets the conversation without them, and is told so.
    const bool images = m_budget->knownAcceptsImages(model).value_or(true);
    for (ChatMessage &sent : messages) {
        if (sent.images.isEmpty())
            continue;
        QStringList notes;
        for (const QString &name : std::as_const(sent.images)) {
            if (!images) {
                notes << QStringLiteral("[The image %1 is not shown: this model does not take images.]").arg(name);
                continue;
            }
            QString error;
            if (const QString url = imageUrl(name, &error); !url.isEmpty())
                sent.imageUrls << url;
            else
                notes << QStringLiteral("[Not shown: %1]").arg(error);
        }
        if (!notes.isEmpty())
            sent.content += QStringLiteral("\n\n") + notes.join(QLatin1Char('\n'));
    }
    return messages;
}

void AttachmentPreparer::learnFromRefusal(const QList<ChatMessage> &request, ChatResponse &response,
                                          const QString &model)
{
    const bool withImages = std::any_of(request.cbegin(), request.cend(),
                                        [](const ChatMessage &message) { return !message.imageUrls.isEmpty(); });
    if (!withImages || response.ok() || response.error.kind == ChatError::Kind::Cancelled ||
        !refusesImages(response.error))
        return;
    // Refused after all (a llama.cpp without its projector, a text model behind a proxy): later
    // requests go without images, so the conversation can go on.
    m_budget->learnImagesRefused(model);
    response.error.message += QLatin1Char(' ') + tr("The model did not take the images. Sandpiper now sends this "
                                                    "conversation to “%1” without them; they stay in the conversation "
                                                    "and in /mnt/data. Send again to go on, or choose a model with "
                                                    "vision.")
                                                     .arg(model);
}

} // namespace Sandpiper
