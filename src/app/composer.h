#pragma once

#include <mcp/mcpserverstatus.h>

#include <QImage>
#include <QPlainTextEdit>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QCompleter;
class QStandardItemModel;
class QPushButton;

namespace Sandpiper {

class ComposerEditor;

// The message box: Enter sends, Shift+Enter starts a new line; files are attached with the
// button or by dropping them and wait above the text as chips (each with a remove button); images are pasted (Ctrl+V)
// or dropped and wait above the text as thumbnails (a click takes one off); the model and the sandbox network switch
// sit beside it. A "/" at the start offers the MCP servers' prompts as templates.
class Composer : public QWidget
{
    Q_OBJECT

public:
    explicit Composer(QWidget *parent = nullptr);

    QPlainTextEdit *editor() const;
    QComboBox *modelPicker() const { return m_models; }
    QCheckBox *networkToggle() const { return m_network; }
    void setBusy(bool busy);
    void setModels(const QStringList &models, const QString &current);
    // MODEL in the model box (the current one), shown from its beginning.
    void showModel(const QString &model);
    // The files that go with the next message: NAMES in the conversation's FOLDER, as chips.
    void setAttachments(const QStringList &names, const QString &folder);
    QWidget *attachmentStrip() const { return m_attachmentStrip; }
    // The images that go with the next message: NAMES in the conversation's FOLDER.
    void setImages(const QStringList &names, const QString &folder);
    QWidget *imageStrip() const { return m_imageStrip; }
    // Puts back TEXT of a message that was not sent, before what was typed since.
    void returnDraft(const QString &text);
    void setNetworkAllowed(bool allowed);
    // The prompt templates "/" offers.
    void setPrompts(const QList<McpPromptInfo> &prompts);
    QCompleter *promptCompleter() const { return m_completer; }
    // Puts TEXT in place of the "/..." that chose a prompt, for the user to read and send.
    void insertTemplate(const QString &text);

Q_SIGNALS:
    void sendRequested(const QString &text);
    void stopRequested();
    // Files dropped on the composer or pasted into it.
    void filesDropped(const QStringList &paths);
    // An image pasted from the clipboard or dropped from another program.
    void imagePasted(const QImage &image);
    void imageRemoved(const QString &name);
    void attachmentRemoved(const QString &name);
    // Something pasted could not be used; MESSAGE says why, for the user.
    void pasteRefused(const QString &message);
    void attachRequested();
    void modelChosen(const QString &model);
    void networkToggled(bool allowed);
    // The user typed "/": the servers with prompts should start if they have not.
    void promptsWanted();
    void promptChosen(const Sandpiper::McpPromptInfo &prompt);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void send();
    void offerPrompts();

    ComposerEditor *m_editor;
    QPushButton *m_sendButton;
    QPushButton *m_stopButton;
    QPushButton *m_attachButton;
    QComboBox *m_models;
    QCheckBox *m_network;
    QWidget *m_attachmentStrip;
    QStringList m_attachments;
    QWidget *m_imageStrip;
    QStringList m_images;
    QCompleter *m_completer;
    QStandardItemModel *m_promptModel;
    QList<McpPromptInfo> m_prompts;
    bool m_busy = false;
};

} // namespace Sandpiper
