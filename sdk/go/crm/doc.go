// Resources of a marketing-automation and CRM account (API v3).
package crm
