import { texts as shared } from '@/config/texts';

/**
 * The news feature's wording (`texts.news`); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  news: {
    title: 'Новости',
    empty: 'Новостей пока нет. Здесь появятся новости и изменения продукта.',
    create: 'Написать новость',
    createTitle: 'Новая новость',
    editTitle: 'Изменение новости',
    edit: 'Изменить',
    delete: 'Удалить',
    deleteTitle: 'Удалить новость?',
    deleteText: (title: string) =>
      `Новость «${title}» исчезнет у всех пользователей. Это действие нельзя отменить.`,
    deleted: 'Новость удалена',
    published: 'Новость опубликована',
    draftSaved: 'Черновик сохранён',
    updated: 'Изменения сохранены',
    fieldTitle: 'Заголовок',
    fieldBody: 'Текст',
    bodyHint: 'Markdown: **жирный**, *курсив*, списки «- », ссылки [текст](https://…). HTML не показывается.',
    tabWrite: 'Текст',
    tabPreview: 'Предпросмотр',
    previewEmpty: 'Введите текст, чтобы увидеть, как его увидят пользователи.',
    pinned: 'Закрепить вверху списка',
    draft: 'Черновик — видят только сотрудники платформы',
    publish: 'Опубликовать',
    saveDraft: 'Сохранить черновик',
    save: 'Сохранить',
    markAllRead: 'Отметить все как прочитанные',
    unread: 'Новое',
    pinnedChip: 'Закреплено',
    draftChip: 'Черновик',
    notPublished: 'Не опубликована',
    author: (name: string) => `Автор: ${name}`,
    unreadCount: (count: number) => `Непрочитанных: ${count}`,
    unreadBadge: (count: number) => `Непрочитанных новостей: ${count}`,
    itemActions: (title: string) => `новость «${title}»`,
    pagination: 'Страницы новостей',
  },
};
