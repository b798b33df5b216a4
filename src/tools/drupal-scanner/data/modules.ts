// Contributed modules the Drupal Scanner probes by their .info file: `popular`, and `all` for the longer list.
export const POPULAR_MODULES: readonly string[] = [
  'views', 'ctools', 'token', 'pathauto', 'admin_toolbar', 'webform', 'metatag', 'entity_reference_revisions', 'paragraphs', 'google_analytics',
  'redirect', 'field_group', 'libraries', 'date', 'entity', 'restws', 'services', 'backup_migrate', 'devel', 'xmlsitemap',
]

export const MORE_MODULES: readonly string[] = [
  'captcha', 'recaptcha', 'honeypot', 'smtp', 'mailsystem', 'imce', 'ckeditor', 'wysiwyg', 'linkit', 'media', 'file_entity', 'colorbox', 'superfish', 'panels',
  'page_manager', 'features', 'rules', 'context', 'entityqueue', 'flag', 'search_api', 'search_api_solr', 'facets', 'better_exposed_filters', 'views_slideshow',
  'simple_sitemap', 'easy_breadcrumb', 'menu_block', 'login_security', 'tfa', 'seckit', 'security_review', 'coder', 'module_filter', 'jquery_update', 'l10n_update',
]

export const modulesToProbe = (enumerate: 'none' | 'popular' | 'all'): readonly string[] =>
  enumerate === 'none' ? [] : enumerate === 'popular' ? POPULAR_MODULES : [...POPULAR_MODULES, ...MORE_MODULES]
