#pragma once

#include <storage/conversationstore.h>

#include <QDir>
#include <QTemporaryDir>

#include <memory>

namespace Sandpiper::Test {

// A conversation of a test's own, in a real SQLite store in a temporary folder, with its folder
// made (the one its sandbox sees as /mnt/data).
struct TestConversation {
    std::unique_ptr<QTemporaryDir> dataFolder;
    std::unique_ptr<ConversationStore> store;
    qint64 id = 0;

    // A fresh store and conversation; empty when all went well, else why not.
    [[nodiscard]] QString open()
    {
        close();
        dataFolder = std::make_unique<QTemporaryDir>();
        store = std::make_unique<ConversationStore>(dataFolder->filePath(QStringLiteral("data")));
        if (const auto opened = store->open(); !opened.ok())
            return opened.error().message;
        const auto conversation = store->createConversation(QStringLiteral("custom"), QStringLiteral("test-model"));
        if (!conversation.ok())
            return conversation.error().message;
        id = conversation->id;
        return QDir().mkpath(folder()) ? QString() : QStringLiteral("cannot make %1").arg(folder());
    }
    // The store goes before its folder.
    void close()
    {
        store.reset();
        dataFolder.reset();
    }
    QString folder() const { return store->conversationFolder(id); }
};

} // namespace Sandpiper::Test
